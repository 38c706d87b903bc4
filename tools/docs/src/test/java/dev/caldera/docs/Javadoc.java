package dev.caldera.docs;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the Javadoc of a type from its source text and renders it as Markdown: enough of the
 * comment syntax for the plugins' own comments ({@code @param} tags, the inline {@code code},
 * {@code link}, {@code value} and {@code literal} tags, paragraphs and lists).
 */
final class Javadoc {

  private static final Pattern PRE = Pattern.compile("(?is)<pre>(?:\\{@code)?(.*?)}?</pre>");
  private static final String BLOCK = "\u0000block";
  private static final Pattern TAG = Pattern.compile("(?m)^@(\\w+)\\s*");

  private Javadoc() {}

  /**
   * The comment right before the declaration of {@code simpleName} (class, record, interface or
   * enum), its lines without the leading {@code *}; empty if there is none.
   */
  static String ofType(String source, String simpleName) {
    Matcher declaration =
        Pattern.compile(
                "(?m)^(?:public\\s+|final\\s+|abstract\\s+|sealed\\s+)*"
                    + "(?:class|record|interface|enum)\\s+"
                    + Pattern.quote(simpleName)
                    + "\\b")
            .matcher(source);
    if (!declaration.find()) {
      return "";
    }
    String before = source.substring(0, declaration.start());
    int end = before.lastIndexOf("*/");
    int start = before.lastIndexOf("/**");
    if (end < 0
        || start < 0
        || end < start
        || !before.substring(end + 2).isBlank() && !onlyAnnotations(before.substring(end + 2))) {
      return "";
    }
    StringBuilder out = new StringBuilder();
    for (String line : before.substring(start + 3, end).split("\n", -1)) {
      String trimmed = line.strip();
      if (trimmed.startsWith("*")) {
        // one space after the star is the comment's; more is the text's (in <pre>)
        trimmed = line.substring(line.indexOf('*') + 1).stripTrailing();
        trimmed = trimmed.startsWith(" ") ? trimmed.substring(1) : trimmed;
      }
      out.append(trimmed).append('\n');
    }
    return out.toString().strip();
  }

  private static boolean onlyAnnotations(String between) {
    // e.g. @Component(...) between the comment and a factory's declaration
    return between.strip().startsWith("@");
  }

  /** The main description: the comment up to its first block tag. */
  static String description(String comment) {
    Matcher tag = TAG.matcher(comment);
    return (tag.find() ? comment.substring(0, tag.start()) : comment).strip();
  }

  /** Each {@code @param} tag's name and text, in the comment's order. */
  static Map<String, String> params(String comment) {
    Map<String, String> out = new LinkedHashMap<>();
    Matcher tag = TAG.matcher(comment);
    int textStart = -1;
    String name = null;
    while (tag.find()) {
      if (name != null) {
        out.put(name, comment.substring(textStart, tag.start()).strip());
        name = null;
      }
      if (tag.group(1).equals("param")) {
        Matcher n = Pattern.compile("(\\S+)\\s*").matcher(comment);
        n.find(tag.end());
        name = n.group(1);
        textStart = n.end();
      }
    }
    if (name != null) {
      out.put(name, comment.substring(textStart).strip());
    }
    return out;
  }

  /** The first sentence (up to the first period followed by white space), as Javadoc has it. */
  static String firstSentence(String text) {
    Matcher end = Pattern.compile("\\.(\\s|$)").matcher(text);
    return end.find() ? text.substring(0, end.start() + 1) : text;
  }

  /**
   * {@code text} as Markdown on one or more lines: {@code {@value #X}} becomes X's value (a
   * constant of {@code owner}), code, links and literals become code spans, {@code <p>} a new
   * paragraph and {@code <li>} a list item.
   */
  static String markdown(String text, Class<?> owner) {
    List<String> blocks = new ArrayList<>();
    Matcher pre = PRE.matcher(text);
    StringBuilder withoutPre = new StringBuilder();
    while (pre.find()) {
      blocks.add("```\n" + dedent(pre.group(1)) + "\n```");
      pre.appendReplacement(
          withoutPre, Matcher.quoteReplacement(" <p>" + BLOCK + (blocks.size() - 1) + " <p> "));
    }
    pre.appendTail(withoutPre);
    StringBuilder out = new StringBuilder();
    String in = withoutPre.toString();
    int i = 0;
    while (i < in.length()) {
      int tag = in.indexOf("{@", i);
      if (tag < 0) {
        out.append(in, i, in.length());
        break;
      }
      out.append(in, i, tag);
      int depth = 0;
      int end = tag;
      for (; end < in.length(); end++) {
        char c = in.charAt(end);
        if (c == '{') {
          depth++;
        } else if (c == '}' && --depth == 0) {
          break;
        }
      }
      if (end >= in.length()) {
        out.append(in, tag, in.length());
        break;
      }
      String inner = in.substring(tag + 2, end);
      String kind = inner.split("\\s", 2)[0];
      String body = inner.substring(kind.length()).strip();
      out.append(
          switch (kind) {
            case "value" -> code(constant(owner, body));
            case "code", "literal" -> code(body);
            case "link", "linkplain" -> link(body, owner);
            default -> body;
          });
      i = end + 1;
    }
    String s =
        out.toString()
            .replaceAll("\\s+", " ")
            .replaceAll("(?i)\\s*<p>\\s*", "\n\n")
            .replaceAll("(?i)\\s*</?(ul|ol)>\\s*", "\n\n")
            .replaceAll("(?i)\\s*<li>\\s*", "\n- ")
            .replaceAll("(?i)</li>", "")
            .replaceAll("(?i)</?(em|i)>", "*")
            .replaceAll("(?i)</?(strong|b)>", "**")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&");
    // join the comment's wrapped lines, keeping paragraphs and list items apart
    StringBuilder joined = new StringBuilder();
    for (String paragraph : s.strip().split("\n\\s*\n")) {
      if (joined.length() > 0) {
        joined.append("\n\n");
      }
      String p = paragraph.strip();
      joined.append(
          p.startsWith(BLOCK) ? blocks.get(Integer.parseInt(p.substring(BLOCK.length()))) : p);
    }
    return joined.toString();
  }

  /** The text on one line, for a table cell. */
  static String cell(String markdown) {
    String s = markdown.replace("\n\n- ", "; ").replace("\n- ", "; ").replace("\n", " ");
    return s.replace("|", "\\|").strip();
  }

  private static String code(String s) {
    return s.contains("`") ? "`` " + s + " ``" : "`" + s + "`";
  }

  private static String link(String body, Class<?> owner) {
    String[] parts = body.split("\\s+", 2);
    if (parts.length == 2) {
      return parts[1];
    }
    if (parts[0].startsWith("#") && !parts[0].contains("(")) {
      Object value = constantValue(owner, parts[0].substring(1));
      if (value != null) {
        String shown = ArgumentsTable.value(value);
        return code(shown != null ? shown : String.valueOf(value));
      }
    }
    String target = parts[0].startsWith("#") ? parts[0].substring(1) : parts[0].replace('#', '.');
    return code(target);
  }

  private static Object constantValue(Class<?> owner, String name) {
    try {
      Field f = owner.getDeclaredField(name);
      if (Modifier.isStatic(f.getModifiers())) {
        f.setAccessible(true);
        return f.get(null);
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      // not a field of the owner
    }
    return null;
  }

  private static String dedent(String block) {
    List<String> lines = new ArrayList<>(List.of(block.split("\n", -1)));
    while (!lines.isEmpty() && lines.get(0).isBlank()) {
      lines.remove(0);
    }
    while (!lines.isEmpty() && lines.get(lines.size() - 1).isBlank()) {
      lines.remove(lines.size() - 1);
    }
    int indent =
        lines.stream()
            .filter(l -> !l.isBlank())
            .mapToInt(l -> l.length() - l.stripLeading().length())
            .min()
            .orElse(0);
    return String.join(
        "\n", lines.stream().map(l -> l.length() >= indent ? l.substring(indent) : l).toList());
  }

  /** The value of {@code owner}'s constant named by {@code #NAME} (or NAME), else the name. */
  static String constant(Class<?> owner, String reference) {
    String name = reference.startsWith("#") ? reference.substring(1) : reference;
    try {
      Field f = owner.getDeclaredField(name);
      if (Modifier.isStatic(f.getModifiers())) {
        f.setAccessible(true);
        return String.valueOf(f.get(null));
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      // not a constant of the owner: shown by name
    }
    return name;
  }
}
