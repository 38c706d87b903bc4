package dev.caldera.api.extension;

import java.util.ArrayList;
import java.util.List;

/**
 * The outcome of a predicate or pre-predicate: success, or a code with the reasons (Kubernetes
 * {@code framework.Status}). A composite of several failures keeps all reasons and takes the most
 * severe code.
 */
public record Status(Code code, List<String> reasons) {

  /** Status codes, in increasing severity for the preempt wrapper. */
  public enum Code {
    SUCCESS,
    /**
     * Fails now but may pass after preemption (ports, pod count, anti-affinity of others, spread).
     */
    UNSCHEDULABLE,
    /** Preemption cannot help (selector, affinity, taints, unschedulable node). */
    UNSCHEDULABLE_AND_UNRESOLVABLE,
    WAIT,
    SKIP,
    ERROR
  }

  public static final Status OK = new Status(Code.SUCCESS, List.of());

  public Status {
    reasons = List.copyOf(reasons);
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

  /** Combines statuses: all reasons of the failures, the most severe code; OK if none failed. */
  public static Status combine(List<Status> statuses) {
    Code worst = Code.SUCCESS;
    List<String> reasons = new ArrayList<>();
    for (Status s : statuses) {
      if (s.isSuccess()) {
        continue;
      }
      if (s.code.ordinal() > worst.ordinal()) {
        worst = s.code;
      }
      reasons.addAll(s.reasons);
    }
    return worst == Code.SUCCESS ? OK : new Status(worst, reasons);
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
