package dev.caldera.plugins.capacitycard;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads the card annotations' JSON: one flat object of card name → whole, non-negative count, e.g.
 * {@code {"NVIDIA-H200": 3, "NVIDIA-H800": 2}}. Anything else (nested values, strings, fractions,
 * negative numbers, repeated keys, trailing text) is a problem described in words, never an
 * exception: the caller reports it on the annotated object.
 */
final class CardJson {

  /**
   * The outcome of a parse.
   *
   * @param counts card name → count, in the order written; empty when the text is unusable
   * @param problem what is wrong, or null
   */
  record Parsed(Map<String, Long> counts, String problem) {
    static Parsed failed(String problem) {
      return new Parsed(Map.of(), problem);
    }
  }

  private final String text;
  private int pos;

  private CardJson(String text) {
    this.text = text;
  }

  /** Parses {@code text}; blank text is an empty object. */
  static Parsed parse(String text) {
    if (text == null || text.isBlank()) {
      return new Parsed(Map.of(), null);
    }
    try {
      return new Parsed(new CardJson(text).object(), null);
    } catch (Malformed e) {
      return Parsed.failed(e.getMessage());
    }
  }

  private Map<String, Long> object() {
    Map<String, Long> out = new LinkedHashMap<>();
    skipSpace();
    expect('{', "a JSON object such as {\"NVIDIA-H200\": 2}");
    skipSpace();
    if (peek() == '}') {
      pos++;
    } else {
      while (true) {
        skipSpace();
        int keyAt = pos;
        String key = string();
        if (key.isBlank()) {
          throw new Malformed("empty card name at offset " + keyAt);
        }
        skipSpace();
        expect(':', "':' after \"" + key + "\"");
        skipSpace();
        long count = count(key);
        if (out.put(key, count) != null) {
          throw new Malformed("card \"" + key + "\" is given twice");
        }
        skipSpace();
        char c = peek();
        if (c == ',') {
          pos++;
        } else if (c == '}') {
          pos++;
          break;
        } else {
          throw unexpected("',' or '}'");
        }
      }
    }
    skipSpace();
    if (pos < text.length()) {
      throw new Malformed("unexpected text after the object at offset " + pos);
    }
    return out;
  }

  private String string() {
    expect('"', "a quoted card name");
    StringBuilder sb = new StringBuilder();
    while (pos < text.length()) {
      char c = text.charAt(pos++);
      if (c == '"') {
        return sb.toString();
      }
      if (c == '\\') {
        if (pos >= text.length()) {
          break;
        }
        char e = text.charAt(pos++);
        switch (e) {
          case '"', '\\', '/' -> sb.append(e);
          case 'n' -> sb.append('\n');
          case 't' -> sb.append('\t');
          case 'r' -> sb.append('\r');
          case 'b' -> sb.append('\b');
          case 'f' -> sb.append('\f');
          case 'u' -> {
            if (pos + 4 > text.length()) {
              throw new Malformed("bad \\u escape at offset " + (pos - 2));
            }
            try {
              sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
            } catch (NumberFormatException ex) {
              throw new Malformed("bad \\u escape at offset " + (pos - 2));
            }
            pos += 4;
          }
          default -> throw new Malformed("bad escape \\" + e + " at offset " + (pos - 2));
        }
      } else {
        sb.append(c);
      }
    }
    throw new Malformed("unterminated string");
  }

  private long count(String key) {
    int start = pos;
    while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
      pos++;
    }
    String number = text.substring(start, pos);
    if (number.isEmpty()) {
      throw new Malformed("count of \"" + key + "\" is not a number");
    }
    java.math.BigDecimal value;
    try {
      value = new java.math.BigDecimal(number);
    } catch (NumberFormatException e) {
      throw new Malformed("count of \"" + key + "\" is " + number + ", not a number");
    }
    if (value.signum() < 0) {
      throw new Malformed("count of \"" + key + "\" is " + number + ", expected 0 or more");
    }
    try {
      return value.longValueExact();
    } catch (ArithmeticException e) {
      throw new Malformed("count of \"" + key + "\" is " + number + ", expected a whole number");
    }
  }

  private void skipSpace() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  private void expect(char c, String what) {
    if (peek() != c) {
      throw unexpected(what);
    }
    pos++;
  }

  private Malformed unexpected(String what) {
    if (pos >= text.length()) {
      return new Malformed("unexpected end of text, expected " + what);
    }
    return new Malformed(
        "unexpected '" + text.charAt(pos) + "' at offset " + pos + ", expected " + what);
  }

  /** A parse failure; caught in {@link #parse}. */
  private static final class Malformed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Malformed(String message) {
      super(message, null, false, false);
    }
  }
}
