package dev.caldera.support.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonEOFException;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one reader of JSON held in annotation values (a queue's card quota, a queue's node group
 * limits, a pod's resource weights), on Jackson's strict streaming parser. Values come back as
 * plain Java: objects as {@link LinkedHashMap}s in the order written, arrays as {@link List}s,
 * numbers as {@link BigDecimal}s, strings, booleans and {@code null}.
 *
 * <p>Malformed text is one {@link Malformed} whose message says where and what was expected, e.g.
 * {@code unexpected '[' at offset 0, expected a JSON object such as {"NVIDIA-H200": 2}}; the caller
 * adds the object and the annotation it read. Nothing else is thrown.
 */
public final class AnnotationJson {

  private static final JsonFactory FACTORY = JsonFactory.builder().build();

  /** A repeated key: the last value wins (Go's decoder), or the text is malformed. */
  public enum RepeatedKeys {
    /** The last value wins, as {@code json.Unmarshal} does. */
    LAST_WINS,
    /** A repeated key is malformed. */
    REFUSED
  }

  /** What an annotation's text failed to be; the message names the place and the expectation. */
  public static final class Malformed extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    Malformed(String message) {
      super(message);
    }
  }

  private final String text;
  private final JsonParser parser;
  private final RepeatedKeys repeats;
  private final String keyNoun;
  private int end;

  private AnnotationJson(String text, RepeatedKeys repeats, String keyNoun) throws IOException {
    this.text = text;
    this.parser = FACTORY.createParser(text);
    this.repeats = repeats;
    this.keyNoun = keyNoun;
  }

  /**
   * One JSON value filling the whole text; a repeated key keeps its last value.
   *
   * @throws Malformed when the text is not one JSON value
   */
  public static Object read(String text) {
    return run(text, RepeatedKeys.LAST_WINS, "name", "a JSON value", false);
  }

  /**
   * One JSON object filling the whole text, its keys names of {@code keyNoun} (e.g. {@code "card"},
   * used in messages: {@code card "A" is given twice}, {@code empty card name at offset 1}).
   *
   * @param expected what the text should be, for the message when it is not an object, e.g. {@code
   *     a JSON object such as {"NVIDIA-H200": 2}}
   * @param repeats whether a repeated key is refused
   * @throws Malformed when the text is not one object, a key is blank, or a refused key repeats
   */
  public static Map<String, Object> readObject(
      String text, String expected, String keyNoun, RepeatedKeys repeats) {
    @SuppressWarnings("unchecked")
    Map<String, Object> object = (Map<String, Object>) run(text, repeats, keyNoun, expected, true);
    return object;
  }

  private static Object run(
      String text, RepeatedKeys repeats, String keyNoun, String expected, boolean objectOnly) {
    if (text == null) {
      throw new Malformed("unexpected end of text, expected " + expected);
    }
    AnnotationJson json;
    try {
      json = new AnnotationJson(text, repeats, keyNoun);
    } catch (IOException e) {
      throw new Malformed("unreadable text: " + e.getMessage());
    }
    try (JsonParser parser = json.parser) {
      JsonToken first;
      try {
        first = parser.nextToken();
      } catch (JsonProcessingException e) {
        // The first token is already wrong: say what should have been there.
        throw json.unexpectedAt(json.skipSpace(0), expected);
      }
      if (first == null) {
        throw json.unexpectedAt(text.length(), expected);
      }
      json.mark(first);
      if (objectOnly && first != JsonToken.START_OBJECT) {
        throw json.unexpectedAt((int) parser.currentTokenLocation().getCharOffset(), expected);
      }
      Object value = json.value(first);
      json.end(objectOnly ? "the object" : "the value");
      return value;
    } catch (JsonEOFException e) {
      throw json.unexpectedEnd("a complete JSON value");
    } catch (JsonProcessingException e) {
      throw json.malformed(e);
    } catch (IOException e) {
      throw new Malformed("unreadable text: " + e.getMessage());
    }
  }

  /** The text's next token, or a message saying what was {@code expected} there. */
  private JsonToken next(String expected) {
    JsonToken token;
    try {
      token = parser.nextToken();
    } catch (JsonEOFException e) {
      throw unexpectedEnd(expected);
    } catch (JsonProcessingException e) {
      throw malformedEntry(e);
    } catch (IOException e) {
      throw new Malformed("unreadable text: " + e.getMessage());
    }
    if (token == null) {
      throw unexpectedAt(text.length(), expected);
    }
    mark(token);
    return token;
  }

  /**
   * Where the last complete token ends; a string is read lazily, so until it is read its end is
   * where it starts.
   */
  private void mark(JsonToken token) {
    end =
        (int)
            (token == JsonToken.VALUE_STRING
                ? parser.currentTokenLocation().getCharOffset()
                : parser.currentLocation().getCharOffset());
  }

  private Object value(JsonToken token) throws IOException {
    Object value =
        switch (token) {
          case START_OBJECT -> object();
          case START_ARRAY -> array();
          case VALUE_STRING -> parser.getText();
          case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> parser.getDecimalValue();
          case VALUE_TRUE -> Boolean.TRUE;
          case VALUE_FALSE -> Boolean.FALSE;
          case VALUE_NULL -> null;
          default ->
              throw unexpectedAt(
                  (int) parser.currentTokenLocation().getCharOffset(), "a JSON value");
        };
    end = (int) parser.currentLocation().getCharOffset();
    return value;
  }

  private Map<String, Object> object() throws IOException {
    Map<String, Object> out = new LinkedHashMap<>();
    JsonToken token = next("a quoted " + keyNoun + " name or '}'");
    while (token != JsonToken.END_OBJECT) {
      int keyAt = (int) parser.currentTokenLocation().getCharOffset();
      String key = parser.currentName();
      if (key.isBlank()) {
        throw new Malformed("empty " + keyNoun + " name at offset " + keyAt);
      }
      Object value = value(next("a value for \"" + key + "\""));
      if (out.containsKey(key) && repeats == RepeatedKeys.REFUSED) {
        throw new Malformed(keyNoun + " \"" + key + "\" is given twice");
      }
      out.put(key, value);
      token = next("',' or '}'");
    }
    return out;
  }

  private List<Object> array() throws IOException {
    List<Object> out = new ArrayList<>();
    JsonToken token = next("a value or ']'");
    while (token != JsonToken.END_ARRAY) {
      out.add(value(token));
      token = next("',' or ']'");
    }
    return out;
  }

  /** Nothing but white space may follow the value. */
  private void end(String what) {
    int at = skipSpace(end);
    if (at < text.length()) {
      throw new Malformed("unexpected text after " + what + " at offset " + at);
    }
  }

  private int skipSpace(int from) {
    int at = Math.min(from, text.length());
    while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
      at++;
    }
    return at;
  }

  /**
   * The text ended inside a structure: right where {@code expected} should have started, or inside
   * a name or value that starts after the last complete one.
   */
  private Malformed unexpectedEnd(String expected) {
    int at = skipSpace(end);
    if (at < text.length()) {
      return new Malformed("unexpected end of text in what starts at offset " + at);
    }
    return new Malformed("unexpected end of text, expected " + expected);
  }

  /**
   * Jackson reads an object's name, its colon and the start of its value in one step: when the
   * value is what failed, say so at the value, naming the key.
   */
  private Malformed malformedEntry(JsonProcessingException e) {
    int valueAt = valueStart(skipSpace(end));
    String key = parser.getParsingContext().getCurrentName();
    if (valueAt >= 0
        && key != null
        && e.getLocation() != null
        && e.getLocation().getCharOffset() >= valueAt) {
      return unexpectedAt(valueAt, "a value for \"" + key + "\"");
    }
    return malformed(e);
  }

  /** Where the value starts of the entry {@code [,] "name" :} at {@code at}, or -1. */
  private int valueStart(int at) {
    int i = at;
    if (i < text.length() && text.charAt(i) == ',') {
      i = skipSpace(i + 1);
    }
    if (i >= text.length() || text.charAt(i) != '"') {
      return -1;
    }
    for (i++; i < text.length() && text.charAt(i) != '"'; i++) {
      if (text.charAt(i) == '\\') {
        i++;
      }
    }
    i = skipSpace(i + 1);
    if (i >= text.length() || text.charAt(i) != ':') {
      return -1;
    }
    i = skipSpace(i + 1);
    return i < text.length() ? i : -1;
  }

  /** Jackson's reason, without its source excerpt, at the offset it gives. */
  private Malformed malformed(JsonProcessingException e) {
    String reason = e.getOriginalMessage();
    int newline = reason.indexOf('\n');
    if (newline >= 0) {
      reason = reason.substring(0, newline);
    }
    reason = reason.replaceAll(" \\(code [0-9]+\\)", "");
    long at = e.getLocation() == null ? -1 : e.getLocation().getCharOffset();
    return new Malformed(at < 0 ? reason : reason + " at offset " + at);
  }

  private Malformed unexpectedAt(int at, String expected) {
    if (at >= text.length()) {
      return new Malformed("unexpected end of text, expected " + expected);
    }
    return new Malformed(
        "unexpected '" + text.charAt(at) + "' at offset " + at + ", expected " + expected);
  }
}
