package dev.caldera.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class PercentilesTest {

  @Test
  void oneToHundred_givesTheRankItself() {
    Percentiles p = Percentiles.of(LongStream.rangeClosed(1, 100).toArray());

    assertThat(p.get(50)).isEqualTo(50);
    assertThat(p.get(90)).isEqualTo(90);
    assertThat(p.get(99)).isEqualTo(99);
    assertThat(p.max()).isEqualTo(100);
    assertThat(p.count()).isEqualTo(100);
  }

  @Test
  void aSmallSample_roundsTheRankUp_toAValueOfTheSample() {
    Percentiles p = Percentiles.of(new long[] {30, 10, 20});

    assertThat(p.get(50)).isEqualTo(20);
    assertThat(p.get(90)).isEqualTo(30);
    assertThat(p.get(33)).isEqualTo(10);
    assertThat(p.get(34)).isEqualTo(20);
  }

  @Test
  void oneValue_isEveryPercentile() {
    Percentiles p = Percentiles.of(new long[] {7});

    assertThat(p.get(1)).isEqualTo(7);
    assertThat(p.get(99)).isEqualTo(7);
  }

  @Test
  void theInputIsNotChanged() {
    long[] values = {3, 1, 2};

    Percentiles.of(values);

    assertThat(values).containsExactly(3, 1, 2);
  }

  @Test
  void anEmptySample_orAPercentileOutsideTheRange_isRefused() {
    assertThatThrownBy(() -> Percentiles.of(new long[0]).get(50))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> Percentiles.of(new long[] {1}).get(0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Percentiles.of(new long[] {1}).get(101))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
