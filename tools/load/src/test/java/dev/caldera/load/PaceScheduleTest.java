package dev.caldera.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PaceScheduleTest {

  @Test
  void podsAreDueEvenlyAtTheRate() {
    PaceSchedule pace = new PaceSchedule(100);

    assertThat(pace.offsetNanos(0)).isZero();
    assertThat(pace.offsetNanos(1)).isEqualTo(10_000_000L);
    assertThat(pace.offsetNanos(100)).isEqualTo(1_000_000_000L);
    assertThat(pace.offsetNanos(5_999)).isEqualTo(59_990_000_000L);
  }

  @Test
  void aFractionalRate_spacesPodsByItsInverse() {
    PaceSchedule pace = new PaceSchedule(0.5);

    assertThat(pace.offsetNanos(1)).isEqualTo(2_000_000_000L);
    assertThat(new PaceSchedule(300).offsetNanos(1)).isEqualTo(3_333_333L);
  }

  @Test
  void aGangsPods_areSpreadLikeAnyOthers_notSentTogether() {
    PaceSchedule pace = new PaceSchedule(300);
    Workload gangs = new Workload(10, 3);

    for (int pod = 1; pod < gangs.pods(); pod++) {
      assertThat(pace.offsetNanos(pod) - pace.offsetNanos(pod - 1))
          .as("gap before %s", gangs.podName(pod))
          .isBetween(3_333_000L, 3_334_000L);
    }
  }

  @Test
  void podsDueTogether_shareTheirBatchsTime_andBatchesKeepTheRate() {
    PaceSchedule pace = new PaceSchedule(100, 10);

    for (int pod = 0; pod < 10; pod++) {
      assertThat(pace.offsetNanos(pod)).as("pod %d of the first gang", pod).isZero();
    }
    assertThat(pace.offsetNanos(10)).isEqualTo(100_000_000L);
    assertThat(pace.offsetNanos(19)).isEqualTo(100_000_000L);
    assertThat(pace.offsetNanos(5_990)).isEqualTo(59_900_000_000L);
    assertThatThrownBy(() -> new PaceSchedule(100, 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void podsIn_countsThePodsDueBeforeTheEnd() {
    assertThat(new PaceSchedule(100).podsIn(60)).isEqualTo(6_000);
    assertThat(new PaceSchedule(300).podsIn(60)).isEqualTo(18_000);
    assertThat(new PaceSchedule(3).podsIn(1.5)).isEqualTo(5);
    assertThat(new PaceSchedule(0.1).podsIn(1)).as("at least one").isEqualTo(1);
  }

  @Test
  void aRateOfZeroOrLess_isRefused() {
    assertThatThrownBy(() -> new PaceSchedule(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new PaceSchedule(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
