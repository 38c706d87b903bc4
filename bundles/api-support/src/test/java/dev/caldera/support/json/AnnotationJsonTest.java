package dev.caldera.support.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.support.json.AnnotationJson.Malformed;
import dev.caldera.support.json.AnnotationJson.RepeatedKeys;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AnnotationJsonTest {

  private static final String CARDS = "a JSON object such as {\"A\": 2}";

  @Test
  void read_givesPlainJavaValuesInTheOrderWritten() {
    Object value =
        AnnotationJson.read(
            " {\"b\": {\"x\": \"1\\u0041\\n\", \"y\": -1.5e2}, \"a\": [true, null]} ");

    Map<String, Object> inner = new LinkedHashMap<>();
    inner.put("x", "1A\n");
    inner.put("y", new BigDecimal("-1.5e2"));
    assertThat(value).isInstanceOf(LinkedHashMap.class);
    assertThat(((Map<?, ?>) value).keySet().toString()).isEqualTo("[b, a]");
    assertThat(((Map<?, ?>) value).get("b")).isEqualTo(inner);
    assertThat(((Map<?, ?>) value).get("a")).isEqualTo(Arrays.asList(true, null));
    assertThat(AnnotationJson.read("null")).isNull();
    assertThat(AnnotationJson.read("7")).isEqualTo(new BigDecimal(7));
  }

  @Test
  void read_repeatedKeyKeepsTheLastValue() {
    assertThat(AnnotationJson.read("{\"a\":1,\"a\":2}")).isEqualTo(Map.of("a", new BigDecimal(2)));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "{",
        "{\"a\" 1}",
        "{\"a\":1,}",
        "[1 2]",
        "01",
        "1.",
        "\"x",
        "{a:1}",
        "1 2",
        "{'a':1}",
        "{\"a\":1} // note",
        "NaN"
      })
  void read_malformedTextIsOneMalformedNamingTheOffsetOrTheEnd(String bad) {
    assertThatThrownBy(() -> AnnotationJson.read(bad))
        .as(bad)
        .isInstanceOf(Malformed.class)
        .hasMessageMatching(".*(at offset [0-9]+|end of text).*");
  }

  @Test
  void readObject_notAnObjectSaysWhatWasExpected() {
    assertThatThrownBy(() -> objectOnce("[1]"))
        .hasMessage("unexpected '[' at offset 0, expected " + CARDS);
    assertThatThrownBy(() -> objectOnce("  nope"))
        .hasMessage("unexpected 'n' at offset 2, expected " + CARDS);
    assertThatThrownBy(() -> objectOnce(""))
        .hasMessage("unexpected end of text, expected " + CARDS);
  }

  @Test
  void readObject_endOfTextInsideTheObjectSaysWhatWasExpected() {
    assertThatThrownBy(() -> objectOnce("{\"A\": 3"))
        .hasMessage("unexpected end of text, expected ',' or '}'");
    assertThatThrownBy(() -> objectOnce("{\"A\": "))
        .hasMessage("unexpected end of text in what starts at offset 1");
    assertThatThrownBy(() -> AnnotationJson.read("[\"x"))
        .hasMessage("unexpected end of text in what starts at offset 1");
  }

  @Test
  void readObject_textAfterTheObjectIsMalformed() {
    assertThatThrownBy(() -> objectOnce("{\"A\": 1} x"))
        .hasMessage("unexpected text after the object at offset 9");
    assertThatThrownBy(() -> AnnotationJson.read("{\"A\": 1} {}"))
        .hasMessage("unexpected text after the value at offset 9");
  }

  @Test
  void readObject_refusedRepeatsAndBlankNamesUseTheKeyNoun() {
    assertThatThrownBy(() -> objectOnce("{\"A\": 1, \"A\": 2}"))
        .hasMessage("card \"A\" is given twice");
    assertThatThrownBy(() -> objectOnce("{\"\": 1}")).hasMessage("empty card name at offset 1");
  }

  @Test
  void readObject_lastWinsKeepsTheLastOfARepeatedKey() {
    assertThat(
            AnnotationJson.readObject(
                "{\"cpu\": 1, \"cpu\": 3}", "an object", "resource", RepeatedKeys.LAST_WINS))
        .containsExactly(Map.entry("cpu", new BigDecimal(3)));
  }

  @Test
  void readObject_syntaxErrorInsideNamesTheOffset() {
    assertThatThrownBy(() -> objectOnce("{\"A\": 1,}"))
        .isInstanceOf(Malformed.class)
        .hasMessageContaining("at offset 8");
    assertThatThrownBy(() -> objectOnce("{\"A\" 1}"))
        .isInstanceOf(Malformed.class)
        .hasMessageContaining("at offset 5");
  }

  @Test
  void readObject_badValueNamesItsKeyAndOffset() {
    assertThatThrownBy(() -> objectOnce("{\"A\": oops}"))
        .hasMessage("unexpected 'o' at offset 6, expected a value for \"A\"");
    assertThatThrownBy(() -> objectOnce("{\"A\": 1, \"B\\\"\" :  -x}"))
        .hasMessage("unexpected '-' at offset 18, expected a value for \"B\"\"");
  }

  @Test
  void readObject_numbersKeepTheirExactValue() {
    assertThat(objectOnce("{\"A\": 1e1, \"B\": 0.1, \"C\": 12345678901234567890}"))
        .containsExactly(
            Map.entry("A", new BigDecimal("1e1")),
            Map.entry("B", new BigDecimal("0.1")),
            Map.entry("C", new BigDecimal("12345678901234567890")));
    assertThat(AnnotationJson.read("[]")).isEqualTo(List.of());
  }

  private static Map<String, Object> objectOnce(String text) {
    return AnnotationJson.readObject(text, CARDS, "card", RepeatedKeys.REFUSED);
  }
}
