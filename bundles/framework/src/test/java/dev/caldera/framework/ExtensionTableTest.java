package dev.caldera.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.framework.ExtensionTable.Combination;
import dev.caldera.framework.conf.Flag;
import dev.caldera.framework.conf.PluginOption;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ExtensionTableTest {

  private static PluginOption with(Flag... on) {
    Set<Flag> flags = EnumSet.noneOf(Flag.class);
    flags.addAll(List.of(on));
    return new PluginOption("p", flags, Map.of(), false);
  }

  @Test
  void everyExtensionPoint_hasOneRow_inTheOrderOfAll() {
    assertThat(ExtensionTable.rows())
        .extracting(ExtensionTable.Row::point)
        .containsExactlyElementsOf(ExtensionPoint.ALL);
  }

  @Test
  void rows_sayHowVolcanoCombinesEachKindOfAnswer() {
    assertThat(ExtensionTable.of(ExtensionPoint.JOB_ORDER).combination())
        .isEqualTo(Combination.COMPARE_CHAIN);
    assertThat(ExtensionTable.of(ExtensionPoint.PREDICATE).combination())
        .isEqualTo(Combination.FIRST_FAILURE);
    assertThat(ExtensionTable.of(ExtensionPoint.JOB_ENQUEUEABLE).combination())
        .isEqualTo(Combination.VOTE);
    assertThat(ExtensionTable.of(ExtensionPoint.RECLAIMABLE).combination())
        .isEqualTo(Combination.INTERSECT);
    assertThat(ExtensionTable.of(ExtensionPoint.VICTIM_TASKS).combination())
        .isEqualTo(Combination.UNION);
    assertThat(ExtensionTable.of(ExtensionPoint.NODE_ORDER).combination())
        .isEqualTo(Combination.SUM);
    assertThat(ExtensionTable.of(ExtensionPoint.JOB_STARVING).combination())
        .isEqualTo(Combination.FIRST_TIER);
    assertThat(ExtensionTable.of(ExtensionPoint.EVENT_HANDLER).combination())
        .isEqualTo(Combination.EVERY);
  }

  @Test
  void aRow_isEnabledByAnyOfItsGates_andAlwaysWithoutOne() {
    ExtensionTable.Row add = ExtensionTable.of(ExtensionPoint.SIMULATE_ADD_TASK);
    assertThat(add.enabled(with(Flag.PREEMPTABLE))).isTrue();
    assertThat(add.enabled(with(Flag.PREDICATE))).isFalse();
    assertThat(ExtensionTable.of(ExtensionPoint.JOB_VALID).enabled(with())).isTrue();
  }

  @Test
  void aGatedPoint_isOffWithoutItsFlag_andOnWithIt() {
    ExtensionTable.Row batchNodeOrder = ExtensionTable.of(ExtensionPoint.BATCH_NODE_ORDER);
    assertThat(batchNodeOrder.enabled(with())).isFalse();
    assertThat(batchNodeOrder.enabled(with(Flag.NODE_ORDER))).isTrue();
    assertThat(ExtensionTable.of(ExtensionPoint.JOB_ENQUEUEABLE).enabled(with(Flag.JOB_ENQUEUED)))
        .isTrue();
    assertThat(ExtensionTable.of(ExtensionPoint.SIMULATE_PREDICATE).enabled(with(Flag.NODE_ORDER)))
        .isFalse();
  }

  @Test
  void simulateAddAndRemove_takeEitherFlag() {
    for (ExtensionPoint<?> p :
        List.of(ExtensionPoint.SIMULATE_ADD_TASK, ExtensionPoint.SIMULATE_REMOVE_TASK)) {
      ExtensionTable.Row row = ExtensionTable.of(p);
      assertThat(row.gates()).containsExactlyInAnyOrder(Flag.PREEMPTABLE, Flag.ALLOCATABLE);
      assertThat(row.enabled(with(Flag.PREEMPTABLE))).as("%s", p).isTrue();
      assertThat(row.enabled(with(Flag.ALLOCATABLE))).as("%s", p).isTrue();
      assertThat(row.enabled(with(Flag.PREDICATE))).as("%s", p).isFalse();
    }
  }

  @Test
  void ungatedPoints_haveNoGates_andAreAlwaysOn() {
    for (ExtensionPoint<?> p :
        List.of(
            ExtensionPoint.JOB_VALID,
            ExtensionPoint.VICTIM_QUEUE_ORDER,
            ExtensionPoint.EVENT_HANDLER)) {
      assertThat(ExtensionTable.of(p).gates()).as("%s", p).isEmpty();
      assertThat(ExtensionTable.of(p).enabled(with())).as("%s", p).isTrue();
    }
  }

  @Test
  void anUnknownPoint_isRefusedByName() {
    assertThatThrownBy(() -> ExtensionTable.of(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no row for the extension point");
  }
}
