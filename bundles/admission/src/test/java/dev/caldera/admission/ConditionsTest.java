package dev.caldera.admission;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.model.PodCondition;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConditionsTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant NOW = Instant.parse("2026-01-01T00:05:00Z");

  @Test
  void timed_keepsItsOwnTime() {
    Instant own = Instant.parse("2026-01-01T00:01:00Z");
    PodCondition c = new PodCondition("PodScheduled", "True", null, null, own);
    List<PodCondition> old = List.of(new PodCondition("PodScheduled", "True", null, null, T0));
    assertThat(Conditions.timed(old, c, NOW)).isSameAs(c);
  }

  @Test
  void timed_keepsTheOldTime_whileTheStatusHolds() {
    List<PodCondition> old =
        List.of(new PodCondition("PodScheduled", "False", "Unschedulable", "a", T0));
    PodCondition c = new PodCondition("PodScheduled", "False", "Unschedulable", "b");
    assertThat(Conditions.timed(old, c, NOW))
        .isEqualTo(new PodCondition("PodScheduled", "False", "Unschedulable", "b", T0));
  }

  @Test
  void timed_isNow_whenTheStatusChanged_orTheOldHadNoTime_orThereWasNone() {
    PodCondition c = new PodCondition("PodScheduled", "True", null, null);
    assertThat(
            Conditions.timed(
                    List.of(new PodCondition("PodScheduled", "False", null, null, T0)), c, NOW)
                .lastTransitionTime())
        .isEqualTo(NOW);
    assertThat(
            Conditions.timed(List.of(new PodCondition("PodScheduled", "True", null, null)), c, NOW)
                .lastTransitionTime())
        .isEqualTo(NOW);
    assertThat(Conditions.timed(List.of(), c, NOW).lastTransitionTime()).isEqualTo(NOW);
  }

  @Test
  void replace_putsTheConditionInPlaceOfItsType_keepingTheOrder() {
    PodCondition ready = new PodCondition("Ready", "False", null, null, T0);
    PodCondition scheduled = new PodCondition("PodScheduled", "False", null, null, T0);
    PodCondition init = new PodCondition("Initialized", "True", null, null, T0);
    PodCondition update = new PodCondition("PodScheduled", "True", null, null);

    List<PodCondition> out = Conditions.replace(List.of(ready, scheduled, init), update, NOW);

    assertThat(out)
        .containsExactly(ready, new PodCondition("PodScheduled", "True", null, null, NOW), init);
  }

  @Test
  void replace_appendsAConditionOfANewType() {
    PodCondition ready = new PodCondition("Ready", "False", null, null, T0);
    PodCondition update = new PodCondition("PodScheduled", "True", null, null, T0);
    assertThat(Conditions.replace(List.of(ready), update, NOW)).containsExactly(ready, update);
  }
}
