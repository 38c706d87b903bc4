package dev.caldera.api.resource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
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
  @CsvSource({"''", "abc", "1.2.3", "5 Gi", "4gi", "--1", "1e99", ".", "+", "1e", "1e+", "Gi"})
  void parse_rejectsMalformedTextWithAClearMessage(String text) {
    assertThatThrownBy(() -> Quantity.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("invalid quantity")
        .hasMessageContaining("expected a number with an optional suffix");
  }

  @ParameterizedTest
  @CsvSource({
    "'\u0663'", // Arabic-Indic three
    "'\u0661\u0662Gi'",
    "'\uFF12'", // fullwidth two
    "'1\uFF10Mi'",
    "'\u0967\u0966'", // Devanagari ten
    "'1.\u0665'",
    "'1e\u0663'",
    "'1E+\uFF13'"
  })
  void parse_refusesDigitsOutsideAscii_asKubernetesDoes(String text) {
    assertThatThrownBy(() -> Quantity.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("invalid quantity");
  }

  @Test
  void parse_acceptsSignedExponentsAndBareDecimals() {
    assertThat(Quantity.parse("1e+3").value()).isEqualTo(1000);
    assertThat(Quantity.parse("15E-1").milliValue()).isEqualTo(1500);
    assertThat(Quantity.parse(".5").milliValue()).isEqualTo(500);
    assertThat(Quantity.parse("2.").value()).isEqualTo(2);
    assertThat(Quantity.parse("-1.5Gi").amount()).isEqualByComparingTo("-1610612736");
  }

  @Test
  void parse_errorShowsAtMost64CharactersOfALongText() {
    String text = "7".repeat(5000) + "x";
    assertThatThrownBy(() -> Quantity.parse(text))
        .hasMessageStartingWith("invalid quantity \"" + "7".repeat(64) + "…(5001 characters)\"")
        .hasMessageContaining("expected a number")
        .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(200));
  }

  @Test
  void shown_keepsShortTextsWhole() {
    assertThat(Quantity.shown("4Gi")).isEqualTo("4Gi");
    assertThat(Quantity.shown("1".repeat(64))).isEqualTo("1".repeat(64));
    assertThat(Quantity.shown("1".repeat(65))).isEqualTo("1".repeat(64) + "…(65 characters)");
  }

  @Test
  void parse_aVeryLongNumberKeepsItsMagnitude() {
    Quantity huge = Quantity.parse("9".repeat(5000));
    assertThat(huge.amount()).isGreaterThan(BigDecimal.TEN.pow(4998));
    assertThat(huge.amount()).isLessThan(BigDecimal.TEN.pow(5000));
    assertThat(huge).hasToString("9".repeat(5000));
    assertThat(Quantity.parse("0".repeat(5000) + "12Ki").value()).isEqualTo(12 * 1024);
  }

  @Test
  void parse_decimalsBeyondThoseReadExactly_roundUp() {
    Quantity tiny = Quantity.parse("0." + "0".repeat(100) + "1");
    assertThat(tiny.isZero()).isFalse();
    assertThat(tiny.milliValue()).isEqualTo(1);
    assertThat(Quantity.parse("1." + "0".repeat(100)).milliValue()).isEqualTo(1000);
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
