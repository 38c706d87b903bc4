package dev.caldera.plugins.nodegroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

  @Test
  void parse_nestedObjectsStringsNumbersAndLiterals() {
    Object v =
        Json.parse(" {\"a\": {\"x\": \"1\\u0041\\n\", \"y\": -1.5e2}, \"b\": [true, null]} ");
    assertThat(v)
        .isEqualTo(
            Map.of(
                "a",
                Map.of("x", "1A\n", "y", new BigDecimal("-1.5e2")),
                "b",
                Arrays.asList(true, null)));
  }

  @Test
  void parse_repeatedKey_keepsTheLastValue() {
    assertThat(Json.parse("{\"a\":1,\"a\":2}")).isEqualTo(Map.of("a", new BigDecimal("2")));
  }

  @Test
  void parse_null_isNull() {
    assertThat(Json.parse("null")).isNull();
  }

  @Test
  void parse_malformedInput_fails() {
    for (String bad :
        new String[] {
          "", "{", "{\"a\" 1}", "{\"a\":1,}", "[1 2]", "01", "1.", "\"x", "{a:1}", "1 2"
        }) {
      assertThatThrownBy(() -> Json.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }
}
