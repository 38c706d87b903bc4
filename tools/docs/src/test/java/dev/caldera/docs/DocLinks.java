package dev.caldera.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Checks the relative links of Markdown files: the file (or directory) a link names exists, and an
 * {@code #anchor} into a Markdown file names one of its headings (GitHub's anchors: lower case,
 * punctuation dropped, spaces as hyphens, {@code -1}, {@code -2} for repeats) or an explicit {@code
 * <a id>}/{@code <a name>}. Links in fenced code blocks and code spans are not links; absolute URLs
 * are not checked.
 */
final class DocLinks {

  private static final Pattern LINK =
      Pattern.compile("\\[[^\\]]*]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
  private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern HTML_ANCHOR =
      Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"", Pattern.CASE_INSENSITIVE);

  private final Path root;
  private final Map<Path, Set<String>> anchors = new HashMap<>();

  DocLinks(Path root) {
    this.root = root;
  }

  /**
   * The Markdown files to check: {@code README.md} and everything under {@code docs/} but the
   * subdirectories named in {@code excluded} (relative to {@code docs/}).
   */
  List<Path> files(Set<String> excluded) {
    List<Path> out = new ArrayList<>();
    Path readme = root.resolve("README.md");
    if (Files.isRegularFile(readme)) {
      out.add(readme);
    }
    Path docs = root.resolve("docs");
    if (Files.isDirectory(docs)) {
      try (Stream<Path> all = Files.walk(docs)) {
        all.filter(p -> p.toString().endsWith(".md"))
            .filter(p -> excluded.stream().noneMatch(e -> docs.relativize(p).startsWith(e)))
            .sorted()
            .forEach(out::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return out;
  }

  /** One line per broken link of {@code file}: {@code file:line: link: what is wrong}. */
  List<String> problems(Path file) {
    List<String> out = new ArrayList<>();
    List<String> lines = lines(file);
    boolean code = false;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.stripLeading().startsWith("```")) {
        code = !code;
        continue;
      }
      if (code) {
        continue;
      }
      List<int[]> spans = codeSpans(line);
      Matcher m = LINK.matcher(line);
      while (m.find()) {
        int at = m.start();
        if (spans.stream().anyMatch(s -> at >= s[0] && at < s[1])) {
          continue;
        }
        String problem = check(file, m.group(1));
        if (problem != null) {
          out.add(root.relativize(file) + ":" + (i + 1) + ": " + m.group(1) + ": " + problem);
        }
      }
    }
    return out;
  }

  private String check(Path file, String target) {
    if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
      return null; // http:, https:, mailto:
    }
    int hash = target.indexOf('#');
    String path = hash < 0 ? target : target.substring(0, hash);
    String anchor = hash < 0 ? null : target.substring(hash + 1);
    Path resolved = path.isEmpty() ? file : file.getParent().resolve(path).normalize();
    if (!resolved.startsWith(root)) {
      return "leaves the repository";
    }
    if (!Files.exists(resolved)) {
      return "no such file " + root.relativize(resolved);
    }
    if (anchor == null || !resolved.toString().endsWith(".md")) {
      return null;
    }
    if (!anchors(resolved).contains(anchor)) {
      return "no heading with the anchor #" + anchor + " in " + root.relativize(resolved);
    }
    return null;
  }

  /** The anchors of a Markdown file's headings and HTML anchors. */
  Set<String> anchors(Path file) {
    return anchors.computeIfAbsent(
        file,
        f -> {
          Set<String> out = new LinkedHashSet<>();
          Map<String, Integer> seen = new HashMap<>();
          boolean code = false;
          for (String line : lines(f)) {
            if (line.stripLeading().startsWith("```")) {
              code = !code;
              continue;
            }
            if (code) {
              continue;
            }
            Matcher h = HEADING.matcher(line);
            if (h.matches()) {
              String slug = slug(h.group(2));
              int n = seen.merge(slug, 1, Integer::sum);
              out.add(n == 1 ? slug : slug + "-" + (n - 1));
            }
            Matcher a = HTML_ANCHOR.matcher(line);
            while (a.find()) {
              out.add(a.group(1));
            }
          }
          return out;
        });
  }

  /** GitHub's anchor of a heading's text. */
  static String slug(String heading) {
    String s = heading.strip().toLowerCase(Locale.ROOT);
    s = s.replaceAll("\\[([^\\]]*)]\\([^)]*\\)", "$1"); // a link's text only
    s = s.replaceAll("[^\\p{L}\\p{N}\\p{M}_\\- ]", "");
    return s.replace(' ', '-');
  }

  /** The [start, end) ranges of the code spans of one line. */
  private static List<int[]> codeSpans(String line) {
    List<int[]> out = new ArrayList<>();
    int i = 0;
    while (i < line.length()) {
      if (line.charAt(i) != '`') {
        i++;
        continue;
      }
      int run = 0;
      while (i + run < line.length() && line.charAt(i + run) == '`') {
        run++;
      }
      String fence = "`".repeat(run);
      int close = line.indexOf(fence, i + run);
      if (close < 0) {
        break;
      }
      out.add(new int[] {i, close + run});
      i = close + run;
    }
    return out;
  }

  private static List<String> lines(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
