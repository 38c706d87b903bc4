package dev.caldera.framework.loop;

/**
 * Text from the cluster (names, annotations, messages) made safe to print on a terminal: a control
 * character (C0, DEL, C1) or a bidirectional formatting character (U+061C, U+200E, U+200F,
 * U+202A–U+202E, U+2066–U+2069) is written as a visible escape ({@code \t}, {@code \n}, {@code \r},
 * else {@code \}{@code uXXXX}), so a name cannot clear the screen, set the window title, or reorder
 * the line it is printed on. Everything else is kept as it is.
 */
public final class TerminalText {

  private TerminalText() {}

  /** Whether {@code c} is escaped by {@link #escape}. */
  public static boolean unsafe(char c) {
    return c < 0x20
        || (c >= 0x7f && c <= 0x9f)
        || c == 0x061c
        || c == 0x200e
        || c == 0x200f
        || (c >= 0x202a && c <= 0x202e)
        || (c >= 0x2066 && c <= 0x2069);
  }

  /** {@code text} with every {@link #unsafe} character escaped; null stays null. */
  public static String escape(String text) {
    if (text == null) {
      return null;
    }
    int i = 0;
    while (i < text.length() && !unsafe(text.charAt(i))) {
      i++;
    }
    if (i == text.length()) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length() + 16).append(text, 0, i);
    for (; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!unsafe(c)) {
        out.append(c);
        continue;
      }
      switch (c) {
        case '\t' -> out.append("\\t");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        default -> out.append(String.format(java.util.Locale.ROOT, "\\u%04X", (int) c));
      }
    }
    return out.toString();
  }
}
