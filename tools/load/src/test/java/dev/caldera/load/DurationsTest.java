package dev.caldera.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

  @Test
  void parse_takesSecondsMillisecondsMinutesAndHours() {
    assertThat(Durations.parse("60s")).isEqualTo(Duration.ofSeconds(60));
    assertThat(Durations.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
    assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(Durations.parse("2m")).isEqualTo(Duration.ofMinutes(2));
    assertThat(Durations.parse("1h")).isEqualTo(Duration.ofHours(1));
    assertThat(Durations.parse("0")).isEqualTo(Duration.ZERO);
  }

  @Test
  void parse_aNumberAlone_isSeconds() {
    assertThat(Durations.parse("3")).isEqualTo(Duration.ofSeconds(3));
    assertThat(Durations.parse("0.25")).isEqualTo(Duration.ofMillis(250));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "abc", "-1s", "10 sec", "1d", "s", "1.2.3s"})
  void parse_rejectsWhatIsNoDuration(String text) {
    assertThatThrownBy(() -> Durations.parse(text)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void format_printsSecondsWithoutTrailingZeros() {
    assertThat(Durations.format(Duration.ofSeconds(60))).isEqualTo("60s");
    assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1.5s");
    assertThat(Durations.format(Duration.ZERO)).isEqualTo("0s");
  }
}
