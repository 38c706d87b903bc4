package dev.caldera.docs;

import java.nio.file.Files;
import java.nio.file.Path;

/** Compares a committed generated file with the text the generator makes now. */
final class Staleness {

  private Staleness() {}

  /** Null when {@code file} holds {@code expected}; else what differs and how to regenerate. */
  static String problem(Path file, String expected, String name) {
    if (!Files.isRegularFile(file)) {
      return name + " is missing; generate it with: " + PluginPages.REGENERATE;
    }
    String actual = PluginPages.read(file);
    if (actual.equals(expected)) {
      return null;
    }
    String[] a = actual.split("\n", -1);
    String[] e = expected.split("\n", -1);
    int line = 0;
    while (line < a.length && line < e.length && a[line].equals(e[line])) {
      line++;
    }
    return name
        + " is stale (it differs from what the code generates now; first difference at line "
        + (line + 1)
        + ": committed \""
        + (line < a.length ? a[line] : "<end of file>")
        + "\", generated \""
        + (line < e.length ? e[line] : "<end of file>")
        + "\"). Regenerate it with: "
        + PluginPages.REGENERATE;
  }
}
