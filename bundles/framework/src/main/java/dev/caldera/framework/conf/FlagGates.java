package dev.caldera.framework.conf;

import dev.caldera.api.ExtensionPoint;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which {@link Flag} of a plugin entry gates which extension point (Volcano's {@code
 * session_plugins.go}): a plugin's function for a point takes part only when one of the point's
 * flags is on in the plugin's entry. A point with no flag (job valid, victim-queue order, event
 * handlers, pre-bind) always takes part.
 */
public final class FlagGates {

  private static final Map<ExtensionPoint<?>, Set<Flag>> GATES = new LinkedHashMap<>();

  static {
    gate(ExtensionPoint.JOB_ORDER, Flag.JOB_ORDER);
    gate(ExtensionPoint.QUEUE_ORDER, Flag.QUEUE_ORDER);
    gate(ExtensionPoint.TASK_ORDER, Flag.TASK_ORDER);
    gate(ExtensionPoint.VICTIM_QUEUE_ORDER);
    gate(ExtensionPoint.PREDICATE, Flag.PREDICATE);
    gate(ExtensionPoint.PRE_PREDICATE, Flag.PREDICATE);
    gate(ExtensionPoint.NODE_ORDER, Flag.NODE_ORDER);
    gate(ExtensionPoint.BATCH_NODE_ORDER, Flag.NODE_ORDER);
    gate(ExtensionPoint.PREEMPTABLE, Flag.PREEMPTABLE);
    gate(ExtensionPoint.RECLAIMABLE, Flag.RECLAIMABLE);
    gate(ExtensionPoint.PREEMPTIVE, Flag.PREEMPTIVE);
    gate(ExtensionPoint.OVERUSED, Flag.OVERUSED);
    gate(ExtensionPoint.ALLOCATABLE, Flag.ALLOCATABLE);
    gate(ExtensionPoint.JOB_ENQUEUEABLE, Flag.JOB_ENQUEUED);
    gate(ExtensionPoint.JOB_ENQUEUED, Flag.JOB_ENQUEUED);
    gate(ExtensionPoint.JOB_READY, Flag.JOB_READY);
    gate(ExtensionPoint.JOB_PIPELINED, Flag.JOB_PIPELINED);
    gate(ExtensionPoint.JOB_VALID);
    gate(ExtensionPoint.JOB_STARVING, Flag.JOB_STARVING);
    gate(ExtensionPoint.VICTIM_TASKS, Flag.VICTIM);
    gate(ExtensionPoint.SIMULATE_ALLOCATABLE, Flag.ALLOCATABLE);
    gate(ExtensionPoint.SIMULATE_PREDICATE, Flag.PREDICATE);
    gate(ExtensionPoint.SIMULATE_ADD_TASK, Flag.PREEMPTABLE, Flag.ALLOCATABLE);
    gate(ExtensionPoint.SIMULATE_REMOVE_TASK, Flag.PREEMPTABLE, Flag.ALLOCATABLE);
    gate(ExtensionPoint.EVENT_HANDLER);
    // Volcano calls every plugin's bind-context handler: no flag gates it.
    gate(ExtensionPoint.PRE_BIND);
  }

  private FlagGates() {}

  private static void gate(ExtensionPoint<?> point, Flag... flags) {
    Set<Flag> set = EnumSet.noneOf(Flag.class);
    set.addAll(List.of(flags));
    GATES.put(point, Set.copyOf(set));
  }

  /** The flags gating {@code point}; any one of them on enables it; empty when none gates it. */
  public static Set<Flag> of(ExtensionPoint<?> point) {
    Set<Flag> flags = GATES.get(point);
    if (flags == null) {
      throw new IllegalArgumentException("no flag entry for the extension point " + point);
    }
    return flags;
  }

  /** Whether {@code option}'s functions for {@code point} take part in a session. */
  public static boolean enabled(ExtensionPoint<?> point, PluginOption option) {
    Set<Flag> flags = of(point);
    if (flags.isEmpty()) {
      return true;
    }
    for (Flag f : flags) {
      if (option.isEnabled(f)) {
        return true;
      }
    }
    return false;
  }
}
