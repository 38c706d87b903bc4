package dev.caldera.api.info;

import dev.caldera.api.resource.ResourceNames;
import dev.caldera.api.resource.ResourceView;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Why a job did not run in a session: the stage that stopped it, the plugin that decided, a
 * sentence for a person and the numbers behind it. Plugins and actions report blockers through
 * {@link dev.caldera.api.Session#reportBlocker}; the scheduler keeps the last one per job.
 *
 * @param stage where the job stopped
 * @param action the action that tried it ({@code enqueue}, {@code allocate}, {@code reclaim}…);
 *     empty when none did
 * @param plugin the plugin (or action) that decided; empty when the framework did
 * @param message one sentence, with the numbers
 * @param figures per resource: requested, allocated and the limit it would break (may be empty)
 * @param nodeCounts for {@link Stage#NODES}: reason → how many nodes gave it; for {@link
 *     Stage#RECLAIM_POLICY}: deciding rule ({@code file:line (rule)}) → how many victim candidates
 *     it denied (may be empty)
 */
public record Blocker(
    Stage stage,
    String action,
    String plugin,
    String message,
    List<Figure> figures,
    Map<String, Integer> nodeCounts) {

  public Blocker {
    action = action == null ? "" : action;
    plugin = plugin == null ? "" : plugin;
    message = message == null ? "" : message;
    figures = figures == null ? List.of() : List.copyOf(figures);
    nodeCounts =
        nodeCounts == null ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(nodeCounts));
  }

  /** A blocker without figures; the session fills in the action and plugin. */
  public static Blocker of(Stage stage, String message) {
    return new Blocker(stage, "", "", message, List.of(), Map.of());
  }

  /** A blocker with figures; the session fills in the action and plugin. */
  public static Blocker of(Stage stage, String message, List<Figure> figures) {
    return new Blocker(stage, "", "", message, figures, Map.of());
  }

  /** This blocker, naming {@code action} and {@code plugin} where it names none. */
  public Blocker from(String action, String plugin) {
    if (!this.action.isEmpty() && !this.plugin.isEmpty()) {
      return this;
    }
    return new Blocker(
        stage,
        this.action.isEmpty() ? action : this.action,
        this.plugin.isEmpty() ? plugin : this.plugin,
        message,
        figures,
        nodeCounts);
  }

  /**
   * The figures of {@code names} (resources in {@link dev.caldera.api.resource.ResourceView}'s
   * units): what is requested, what is allocated and the limit, converted to Kubernetes units
   * (cores, bytes, counts).
   */
  public static List<Figure> figures(
      List<String> names,
      ResourceView requested,
      ResourceView allocated,
      ResourceView limit,
      String limitName) {
    List<Figure> out = new ArrayList<>(names.size());
    for (String n : names) {
      out.add(
          new Figure(
              n,
              units(n, requested.get(n)),
              units(n, allocated.get(n)),
              units(n, limit.get(n)),
              limitName));
    }
    return out;
  }

  /**
   * {@code queue q: cpu requested 3, allocated 5 of capability 6; memory …}: the figures as a
   * person reads them.
   */
  public static String describe(String queue, List<Figure> figures) {
    StringBuilder sb = new StringBuilder("queue ").append(queue);
    String sep = ": ";
    for (Figure f : figures) {
      sb.append(sep)
          .append(f.resource())
          .append(" requested ")
          .append(Figure.format(f.requested()))
          .append(", allocated ")
          .append(Figure.format(f.allocated()))
          .append(" of ")
          .append(f.limitName())
          .append(' ')
          .append(Figure.format(f.limit()));
      sep = "; ";
    }
    return sb.toString();
  }

  /**
   * The numbers behind the message for a person, one line each: the figures ({@code nvidia.com/gpu:
   * requested 8, allocated 60 of capability 64}), then the counts ({@code 3 nodes: Insufficient
   * cpu}, or victim candidates per deciding rule for a policy denial).
   */
  public List<String> details() {
    List<String> out = new ArrayList<>(figures.size() + nodeCounts.size());
    for (Figure f : figures) {
      out.add(
          f.resource()
              + ": requested "
              + Figure.format(f.requested())
              + ", allocated "
              + Figure.format(f.allocated())
              + " of "
              + f.limitName()
              + ' '
              + Figure.format(f.limit()));
    }
    String counted = stage == Stage.RECLAIM_POLICY ? " victim candidate" : " node";
    nodeCounts.forEach((reason, n) -> out.add(n + counted + (n == 1 ? "" : "s") + ": " + reason));
    return out;
  }

  private static double units(String name, double value) {
    if (Double.isInfinite(value) || Double.isNaN(value)) {
      return value;
    }
    return ResourceNames.quantity(name, value).amount().doubleValue();
  }

  /** Where a job stopped, in the order a session reaches the stages. */
  public enum Stage {
    /** Its pod group names a queue that does not exist. */
    QUEUE_MISSING,
    /** Its pods' group annotation names a pod group that does not exist. */
    PODGROUP_MISSING,
    /** Its queue is not Open. */
    QUEUE_CLOSED,
    /** A JobValidFn refused it (gang: fewer tasks than minMember). */
    INVALID,
    /** An enqueue vote rejected it (its minimum does not fit). */
    ENQUEUE,
    /** The queue's capability (or real capability) would be exceeded. */
    QUEUE_CAPABILITY,
    /** The queue is at or over its deserved share. */
    QUEUE_DESERVED,
    /** A card quota of the queue would be exceeded. */
    CARD_QUOTA,
    /** Some tasks fit, but fewer than the gang's minimum. */
    GANG,
    /** No node fits a task. */
    NODES,
    /** Reclaiming for it was denied by a policy rule. */
    RECLAIM_POLICY,
    /** Admitted and waiting for its turn in allocate (no refusal this session). */
    WAITING,
    /**
     * It can never fit as things stand (it asks more cards of a model than its queue's quota or the
     * cluster's inventory): not admitted, and listed after the pod groups that can.
     */
    INADMISSIBLE
  }

  /**
   * One resource of a refusal.
   *
   * @param resource e.g. {@code cpu}, {@code nvidia.com/gpu}
   * @param requested what the job (or task) asks for
   * @param allocated what the queue holds already (with jobs admitted this session)
   * @param limit the limit
   * @param limitName which limit: {@code capability}, {@code realCapability}, {@code deserved},
   *     {@code card quota}, {@code largest node}
   */
  public record Figure(
      String resource, double requested, double allocated, double limit, String limitName) {

    /** A figure without a needless fraction: {@code 8}, {@code 0.5}, {@code unlimited}. */
    public static String format(double v) {
      if (Double.isInfinite(v) || v >= Double.MAX_VALUE / 2) {
        return "unlimited";
      }
      if (v == Math.rint(v) && Math.abs(v) < 1e15) {
        return Long.toString((long) v);
      }
      return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
  }
}
