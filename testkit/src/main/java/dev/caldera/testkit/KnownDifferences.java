package dev.caldera.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shared acceptance scenarios that {@code KNOWN_DIFFERENCES.md} lists as wrong: the list items
 * under the heading {@value #HEADING} that start with a scenario path in backquotes.
 */
public final class KnownDifferences {

  /** The heading of the list. */
  public static final String HEADING = "## Acceptance scenarios we believe are wrong";

  private static final Pattern LISTED = Pattern.compile("^- `([^`]+\\.ya?ml)`:?(.*)$");

  private KnownDifferences() {}

  /**
   * Path relative to the shared scenarios directory → why it is wrong, read from the file.
   *
   * @param file {@code KNOWN_DIFFERENCES.md}
   */
  public static Map<String, String> wrongScenarios(Path file) throws IOException {
    return wrongScenarios(Files.readString(file));
  }

  /** Path relative to the shared scenarios directory → why it is wrong. */
  public static Map<String, String> wrongScenarios(String markdown) {
    Map<String, String> wrong = new TreeMap<>();
    boolean inSection = false;
    for (String line : markdown.split("\n", -1)) {
      if (line.startsWith("## ")) {
        inSection = line.strip().equals(HEADING);
        continue;
      }
      Matcher m = LISTED.matcher(line);
      if (inSection && m.matches()) {
        wrong.put(m.group(1), m.group(2).strip());
      }
    }
    return wrong;
  }
}
