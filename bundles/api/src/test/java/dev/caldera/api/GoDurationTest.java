package dev.caldera.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GoDurationTest {

  @ParameterizedTest
  @CsvSource({
    "0, 0",
    "+0, 0",
    "-0, 0",
    "600s, 600000000000",
    "10m, 600000000000",
    "3m, 180000000000",
    "1h30m, 5400000000000",
    "1.5h, 5400000000000",
    ".5s, 500000000",
    "5.s, 5000000000",
    "1h2m3s4ms5us6ns, 3723004005006",
    "1h2m3s4ms5\u00b5s6ns, 3723004005006",
    "1\u03bcs, 1000",
    "-5m, -300000000000",
    "+2h, 7200000000000",
    "0s, 0",
    "1.0000000001s, 1000000000",
    "9223372036854775807ns, 9223372036854775807",
    "-9223372036854775808ns, -9223372036854775808",
    "2562047h, 9223369200000000000"
  })
  void parse_acceptsGoSyntax(String text, long nanos) {
    assertThat(GoDuration.parse(text)).isEqualTo(Duration.ofNanos(nanos));
  }

  @ParameterizedTest
  @CsvSource({"''", "abc", "-", "+", ".s", "s", "--1s", "h1", "1s."})
  void parse_rejectsMalformedTextAsGoDoes(String text) {
    assertThatThrownBy(() -> GoDuration.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("time: invalid duration \"" + text + "\"");
  }

  @ParameterizedTest
  @CsvSource({"10", "1h5", "0.5", "1.2.3s"})
  void parse_requiresAUnitExceptForZero(String text) {
    assertThatThrownBy(() -> GoDuration.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("time: missing unit in duration \"" + text + "\"");
  }

  @ParameterizedTest
  @CsvSource({"1d, d", "10min, min", "5S, S", "2hr, hr", "'1 s', ' s'"})
  void parse_namesAnUnknownUnit(String text, String unit) {
    assertThatThrownBy(() -> GoDuration.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("time: unknown unit \"" + unit + "\" in duration \"" + text + "\"");
  }

  @ParameterizedTest
  @CsvSource({"9223372036854775808ns", "2562048h", "99999999999999999999s", "2562047h1h"})
  void parse_rejectsOverflow(String text) {
    assertThatThrownBy(() -> GoDuration.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("time: invalid duration \"" + text + "\"");
  }
}
