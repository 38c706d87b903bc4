package dev.caldera.framework;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.framework.conf.Flag;
import dev.caldera.framework.conf.PluginOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every extension point of a session, once: which conf flags gate it (Volcano's {@code
 * session_plugins.go}) and how the answers of several plugins combine. A session freezes the
 * registered functions by the gates and dispatches each point by its combination; the "Gate:"
 * bullet of each function type's Javadoc in {@code dev.caldera.api.extension} is checked against
 * this table.
 */
public final class ExtensionTable {

  /** How the answers of the enabled functions of one point combine into the session's answer. */
  public enum Combination {
    /** Tiers in order, plugins in conf order; the first non-zero answer wins. */
    COMPARE_CHAIN,
    /** Every enabled function must pass; the first failure is the answer. */
    FIRST_FAILURE,
    /**
     * Every enabled function of the first tier that has one must pass; later tiers are not asked.
     */
    FIRST_TIER,
    /** A reject ends the walk; a permit ends it at the end of its tier; all abstaining permits. */
    VOTE,
    /** Inside a tier the answers intersect; the first tier with a non-empty result decides. */
    INTERSECT,
    /** Inside a tier the answers unite; the first tier with a non-empty result decides. */
    UNION,
    /** The answers add up. */
    SUM,
    /** Every function is called, in order; lists they answer are concatenated. */
    EVERY
  }

  /**
   * One extension point: the flags of which any one, on in a plugin's entry, lets the plugin's
   * functions for the point take part (none: always), and how their answers combine.
   */
  public record Row(ExtensionPoint<?> point, Set<Flag> gates, Combination combination) {

    public Row {
      gates = Set.copyOf(gates);
    }

    /** Whether {@code option}'s functions for this point take part in a session. */
    public boolean enabled(PluginOption option) {
      if (gates.isEmpty()) {
        return true;
      }
      for (Flag f : gates) {
        if (option.isEnabled(f)) {
          return true;
        }
      }
      return false;
    }
  }

  private static final List<Row> ROWS = new ArrayList<>();
  private static final Map<ExtensionPoint<?>, Row> BY_POINT = new IdentityHashMap<>();

  static {
    row(ExtensionPoint.JOB_ORDER, Combination.COMPARE_CHAIN, Flag.JOB_ORDER);
    row(ExtensionPoint.QUEUE_ORDER, Combination.COMPARE_CHAIN, Flag.QUEUE_ORDER);
    row(ExtensionPoint.TASK_ORDER, Combination.COMPARE_CHAIN, Flag.TASK_ORDER);
    row(ExtensionPoint.VICTIM_QUEUE_ORDER, Combination.COMPARE_CHAIN);
    row(ExtensionPoint.PREDICATE, Combination.FIRST_FAILURE, Flag.PREDICATE);
    row(ExtensionPoint.PRE_PREDICATE, Combination.FIRST_FAILURE, Flag.PREDICATE);
    row(ExtensionPoint.NODE_ORDER, Combination.SUM, Flag.NODE_ORDER);
    row(ExtensionPoint.BATCH_NODE_ORDER, Combination.SUM, Flag.NODE_ORDER);
    row(ExtensionPoint.PREEMPTABLE, Combination.INTERSECT, Flag.PREEMPTABLE);
    row(ExtensionPoint.RECLAIMABLE, Combination.INTERSECT, Flag.RECLAIMABLE);
    row(ExtensionPoint.PREEMPTIVE, Combination.FIRST_FAILURE, Flag.PREEMPTIVE);
    // Overuse is the failure: the first plugin that reports it is the answer.
    row(ExtensionPoint.OVERUSED, Combination.FIRST_FAILURE, Flag.OVERUSED);
    row(ExtensionPoint.ALLOCATABLE, Combination.FIRST_FAILURE, Flag.ALLOCATABLE);
    row(ExtensionPoint.JOB_ENQUEUEABLE, Combination.VOTE, Flag.JOB_ENQUEUED);
    row(ExtensionPoint.JOB_ENQUEUED, Combination.EVERY, Flag.JOB_ENQUEUED);
    row(ExtensionPoint.JOB_READY, Combination.FIRST_FAILURE, Flag.JOB_READY);
    row(ExtensionPoint.JOB_PIPELINED, Combination.VOTE, Flag.JOB_PIPELINED);
    row(ExtensionPoint.JOB_VALID, Combination.FIRST_FAILURE);
    row(ExtensionPoint.JOB_STARVING, Combination.FIRST_TIER, Flag.JOB_STARVING);
    row(ExtensionPoint.VICTIM_TASKS, Combination.UNION, Flag.VICTIM);
    row(ExtensionPoint.SIMULATE_ALLOCATABLE, Combination.FIRST_FAILURE, Flag.ALLOCATABLE);
    row(ExtensionPoint.SIMULATE_PREDICATE, Combination.FIRST_FAILURE, Flag.PREDICATE);
    row(
        ExtensionPoint.SIMULATE_ADD_TASK,
        Combination.FIRST_FAILURE,
        Flag.PREEMPTABLE,
        Flag.ALLOCATABLE);
    row(
        ExtensionPoint.SIMULATE_REMOVE_TASK,
        Combination.FIRST_FAILURE,
        Flag.PREEMPTABLE,
        Flag.ALLOCATABLE);
    // Handlers are told in the order plugins registered them, whatever their tier.
    row(ExtensionPoint.EVENT_HANDLER, Combination.EVERY);
    // Volcano calls every plugin's bind-context handler: no flag gates it.
    row(ExtensionPoint.PRE_BIND, Combination.EVERY);
  }

  private ExtensionTable() {}

  private static void row(ExtensionPoint<?> point, Combination combination, Flag... gates) {
    Set<Flag> set = EnumSet.noneOf(Flag.class);
    set.addAll(List.of(gates));
    Row row = new Row(point, set, combination);
    ROWS.add(row);
    BY_POINT.put(point, row);
  }

  /** Every row, in the order of {@link ExtensionPoint#ALL}. */
  public static List<Row> rows() {
    return List.copyOf(ROWS);
  }

  /**
   * The row of {@code point}.
   *
   * @throws IllegalArgumentException for a point the table does not know
   */
  public static Row of(ExtensionPoint<?> point) {
    Row row = BY_POINT.get(point);
    if (row == null) {
      throw new IllegalArgumentException("no row for the extension point " + point);
    }
    return row;
  }
}
