package dev.caldera.framework.conf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ExtensionPoint;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FlagGatesTest {

  private static PluginOption with(Flag... on) {
    Set<Flag> flags = EnumSet.noneOf(Flag.class);
    flags.addAll(java.util.List.of(on));
    return new PluginOption("p", flags, Map.of(), false);
  }

  @Test
  void everyExtensionPoint_hasAnEntry() {
    for (ExtensionPoint<?> point : ExtensionPoint.ALL) {
      assertThat(FlagGates.of(point)).as("%s", point).isNotNull();
    }
  }

  @Test
  void aGatedPoint_isOffWithoutItsFlagAndOnWithIt() {
    assertThat(FlagGates.enabled(ExtensionPoint.BATCH_NODE_ORDER, with())).isFalse();
    assertThat(FlagGates.enabled(ExtensionPoint.BATCH_NODE_ORDER, with(Flag.NODE_ORDER))).isTrue();
    assertThat(FlagGates.enabled(ExtensionPoint.JOB_ENQUEUEABLE, with(Flag.JOB_ENQUEUED))).isTrue();
    assertThat(FlagGates.enabled(ExtensionPoint.SIMULATE_PREDICATE, with(Flag.NODE_ORDER)))
        .isFalse();
  }

  @Test
  void simulateAddAndRemove_takeEitherFlag() {
    for (ExtensionPoint<?> p :
        java.util.List.of(ExtensionPoint.SIMULATE_ADD_TASK, ExtensionPoint.SIMULATE_REMOVE_TASK)) {
      assertThat(FlagGates.enabled(p, with(Flag.PREEMPTABLE))).isTrue();
      assertThat(FlagGates.enabled(p, with(Flag.ALLOCATABLE))).isTrue();
      assertThat(FlagGates.enabled(p, with(Flag.PREDICATE))).isFalse();
    }
  }

  @Test
  void ungatedPoints_areAlwaysOn() {
    assertThat(FlagGates.of(ExtensionPoint.JOB_VALID)).isEmpty();
    assertThat(FlagGates.enabled(ExtensionPoint.JOB_VALID, with())).isTrue();
    assertThat(FlagGates.enabled(ExtensionPoint.VICTIM_QUEUE_ORDER, with())).isTrue();
    assertThat(FlagGates.enabled(ExtensionPoint.EVENT_HANDLER, with())).isTrue();
  }
}
