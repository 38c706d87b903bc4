package dev.caldera.api.extension;

import java.util.ArrayList;
import java.util.List;

/**
 * The outcome of a predicate, pre-predicate, simulation step or event handler: success, or a code
 * with the reasons (Kubernetes {@code framework.Status}). A composite of several failures keeps all
 * reasons and takes the most severe code.
 *
 * @param plugin the name of the plugin whose function answered (Kubernetes' {@code
 *     Status.Plugin()}), empty when not known; the session fills it in for a failure it passes on,
 *     so a plugin need not set it
 */
public record Status(Code code, List<String> reasons, String plugin) {

  /** Status codes, in increasing severity for the preempt wrapper. */
  public enum Code {
    SUCCESS,
    /**
     * Fails now but may pass after preemption (ports, pod count, anti-affinity of others, spread).
     */
    UNSCHEDULABLE,
    /** Preemption cannot help (selector, affinity, taints, unschedulable node). */
    UNSCHEDULABLE_AND_UNRESOLVABLE,
    /**
     * Kubernetes' {@code Wait} (a permit plugin holding a pod): the task cannot be placed in this
     * session. No Volcano action waits, so the framework treats it as a failure that preemption
     * cannot resolve.
     */
    WAIT,
    /**
     * Kubernetes' {@code Skip}: the plugin has nothing to say about this task (a pre-filter that
     * makes its filter irrelevant). Returned from a predicate or pre-predicate it still stops the
     * walk like a failure, so a plugin that means "no opinion" returns {@link #OK} instead.
     */
    SKIP,
    /**
     * The plugin failed (a bug, an unreachable extender, an inconsistent state), not the task: the
     * most severe code. Actions treat the node as not feasible; preemption cannot resolve it.
     */
    ERROR
  }

  public static final Status OK = new Status(Code.SUCCESS, List.of());

  public Status {
    reasons = List.copyOf(reasons);
    plugin = plugin == null ? "" : plugin;
  }

  /** A status with no plugin name (the session adds the name of the plugin that answered). */
  public Status(Code code, List<String> reasons) {
    this(code, reasons, "");
  }

  /** This status naming {@code plugin}, unless it already names one. */
  public Status withPlugin(String plugin) {
    return this.plugin.isEmpty() && !plugin.isEmpty() ? new Status(code, reasons, plugin) : this;
  }

  /** An Unschedulable status with one reason. */
  public static Status unschedulable(String reason) {
    return new Status(Code.UNSCHEDULABLE, List.of(reason));
  }

  /** An UnschedulableAndUnresolvable status with one reason. */
  public static Status unresolvable(String reason) {
    return new Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, List.of(reason));
  }

  /** An Error status with one reason. */
  public static Status error(String reason) {
    return new Status(Code.ERROR, List.of(reason));
  }

  /**
   * Combines statuses: all reasons of the failures, the most severe code and the plugin of the
   * first failure with that code; OK if none failed.
   */
  public static Status combine(List<Status> statuses) {
    Code worst = Code.SUCCESS;
    String plugin = "";
    List<String> reasons = new ArrayList<>();
    for (Status s : statuses) {
      if (s.isSuccess()) {
        continue;
      }
      if (s.code.ordinal() > worst.ordinal()) {
        worst = s.code;
        plugin = s.plugin;
      }
      reasons.addAll(s.reasons);
    }
    return worst == Code.SUCCESS ? OK : new Status(worst, reasons, plugin);
  }

  /** Whether this is success. */
  public boolean isSuccess() {
    return code == Code.SUCCESS;
  }

  /**
   * Whether preemption could make the node feasible: success or plain Unschedulable ({@code
   * PredicateForPreemptAction}).
   */
  public boolean resolvableByPreemption() {
    return code == Code.SUCCESS || code == Code.UNSCHEDULABLE;
  }

  /** The reasons joined with "; ". */
  public String message() {
    return String.join("; ", reasons);
  }
}
