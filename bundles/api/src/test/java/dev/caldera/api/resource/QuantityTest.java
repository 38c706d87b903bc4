package dev.caldera.api.resource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QuantityTest {

  @ParameterizedTest
  @CsvSource({
    "500m, 500, 1",
    "2, 2000, 2",
    "1.5, 1500, 2",
    "3k, 3000000, 3000",
    "1e3, 1000000, 1000",
    "4Gi, 4294967296000, 4294967296",
    "1G, 1000000000000, 1000000000",
    "100Mi, 104857600000, 104857600",
    "0.1m, 1, 1",
    "20000m, 20000, 20"
  })
  void parse_milliAndValueRoundUpLikeKubernetes(String text, long milli, long value) {
    Quantity q = Quantity.parse(text);
    assertThat(q.milliValue()).isEqualTo(milli);
    assertThat(q.value()).isEqualTo(value);
  }

  @ParameterizedTest
  @CsvSource({"''", "abc", "1.2.3", "5 Gi", "4gi", "--1", "1e99"})
  void parse_rejectsMalformedTextWithAClearMessage(String text) {
    assertThatThrownBy(() -> Quantity.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("invalid quantity")
        .hasMessageContaining("expected a number with an optional suffix");
  }

  @Test
  void equality_isByValueNotSpelling() {
    assertThat(Quantity.parse("1000m")).isEqualTo(Quantity.parse("1"));
    assertThat(Quantity.parse("1Ki")).isEqualTo(Quantity.parse("1024"));
    assertThat(Quantity.parse("1k")).isNotEqualTo(Quantity.parse("1Ki"));
  }

  @Test
  void printing_usesKubernetesUnits() {
    assertThat(Quantity.ofMilli(500)).hasToString("500m");
    assertThat(Quantity.ofMilli(3000)).hasToString("3");
    assertThat(Quantity.ofBytes(4L << 30)).hasToString("4Gi");
    assertThat(Quantity.ofBytes(1_000_000_000L)).hasToString("1G");
    assertThat(Quantity.ofBytes(1234)).hasToString("1234");
    assertThat(Quantity.of(7)).hasToString("7");
  }
}
