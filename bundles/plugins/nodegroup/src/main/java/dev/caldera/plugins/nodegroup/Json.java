package dev.caldera.plugins.nodegroup;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small strict JSON reader for annotation values: objects become {@link LinkedHashMap}s (a
 * repeated key keeps the last value, as Go's decoder does), arrays {@link List}s, numbers {@link
 * BigDecimal}s, and {@code null} null. The plugin may import only the API, hence no library.
 */
final class Json {

  private final String text;
  private int pos;

  private Json(String text) {
    this.text = text;
  }

  /**
   * Parses one JSON value filling the whole text.
   *
   * @throws IllegalArgumentException saying where the text is malformed
   */
  static Object parse(String text) {
    Json json = new Json(text);
    Object value = json.value();
    json.skipSpace();
    if (json.pos != text.length()) {
      throw json.error("unexpected text after the value");
    }
    return value;
  }

  private Object value() {
    skipSpace();
    if (pos >= text.length()) {
      throw error("unexpected end of input");
    }
    char c = text.charAt(pos);
    return switch (c) {
      case '{' -> object();
      case '[' -> array();
      case '"' -> string();
      case 't' -> literal("true", Boolean.TRUE);
      case 'f' -> literal("false", Boolean.FALSE);
      case 'n' -> literal("null", null);
      default -> {
        if (c == '-' || (c >= '0' && c <= '9')) {
          yield number();
        }
        throw error("unexpected character '" + c + "'");
      }
    };
  }

  private Map<String, Object> object() {
    Map<String, Object> out = new LinkedHashMap<>();
    pos++;
    skipSpace();
    if (peek('}')) {
      pos++;
      return out;
    }
    while (true) {
      skipSpace();
      if (!peek('"')) {
        throw error("expected a string key");
      }
      String key = string();
      skipSpace();
      expect(':');
      out.put(key, value());
      skipSpace();
      if (peek(',')) {
        pos++;
      } else {
        expect('}');
        return out;
      }
    }
  }

  private List<Object> array() {
    List<Object> out = new ArrayList<>();
    pos++;
    skipSpace();
    if (peek(']')) {
      pos++;
      return out;
    }
    while (true) {
      out.add(value());
      skipSpace();
      if (peek(',')) {
        pos++;
      } else {
        expect(']');
        return out;
      }
    }
  }

  private String string() {
    pos++;
    StringBuilder sb = new StringBuilder();
    while (pos < text.length()) {
      char c = text.charAt(pos++);
      if (c == '"') {
        return sb.toString();
      }
      if (c < 0x20) {
        throw error("control character in a string");
      }
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      if (pos >= text.length()) {
        break;
      }
      char e = text.charAt(pos++);
      switch (e) {
        case '"', '\\', '/' -> sb.append(e);
        case 'b' -> sb.append('\b');
        case 'f' -> sb.append('\f');
        case 'n' -> sb.append('\n');
        case 'r' -> sb.append('\r');
        case 't' -> sb.append('\t');
        case 'u' -> {
          if (pos + 4 > text.length()) {
            throw error("short \\u escape");
          }
          try {
            sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
          } catch (NumberFormatException ex) {
            throw error("bad \\u escape");
          }
          pos += 4;
        }
        default -> throw error("bad escape \\" + e);
      }
    }
    throw error("unterminated string");
  }

  private BigDecimal number() {
    int start = pos;
    if (peek('-')) {
      pos++;
    }
    int digits = pos;
    while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
      pos++;
    }
    if (pos == digits || (text.charAt(digits) == '0' && pos - digits > 1)) {
      throw error("malformed number");
    }
    if (peek('.')) {
      pos++;
      int fraction = pos;
      while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
        pos++;
      }
      if (pos == fraction) {
        throw error("malformed number");
      }
    }
    if (peek('e') || peek('E')) {
      pos++;
      if (peek('+') || peek('-')) {
        pos++;
      }
      int exponent = pos;
      while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
        pos++;
      }
      if (pos == exponent) {
        throw error("malformed number");
      }
    }
    return new BigDecimal(text.substring(start, pos));
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, pos)) {
      throw error("unexpected character '" + text.charAt(pos) + "'");
    }
    pos += word.length();
    return value;
  }

  private void skipSpace() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  private boolean peek(char c) {
    return pos < text.length() && text.charAt(pos) == c;
  }

  private void expect(char c) {
    if (!peek(c)) {
      throw error("expected '" + c + "'");
    }
    pos++;
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException(what + " at offset " + pos);
  }
}
