package dev.caldera.framework.internal.session;

import dev.caldera.api.extension.Status;
import dev.caldera.api.info.TaskStatus;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Volcano's scheduling messages: {@code FitErrors.Error()}, {@code job.FitError()}, {@code
 * TaskSchedulingReason}.
 */
final class FitErrors {

  static final String REASON_SCHEDULABLE = "Schedulable";
  static final String REASON_UNSCHEDULABLE = "Unschedulable";

  private FitErrors() {}

  /** Why a task is where it is: reason, message and nominated node (may be empty). */
  record Reason(String reason, String message, String nominatedNode) {}

  /** {@code "0/<N> nodes are unavailable: <sorted 'count reason'>."}, N = nodes with an error. */
  static String nodesMessage(Map<String, Status> perNode) {
    Map<String, Integer> histogram = new TreeMap<>();
    for (Status s : perNode.values()) {
      for (String reason : s.reasons()) {
        histogram.merge(reason, 1, Integer::sum);
      }
    }
    return "0/"
        + perNode.size()
        + " nodes are unavailable: "
        + String.join(", ", sortedHistogram(histogram))
        + ".";
  }

  private static List<String> sortedHistogram(Map<String, Integer> histogram) {
    List<String> out = new ArrayList<>();
    histogram.forEach((k, v) -> out.add(v + " " + k));
    Collections.sort(out);
    return out;
  }

  /** Go's {@code TaskStatus.String()}. */
  static String statusName(TaskStatus s) {
    String n = s.name();
    return n.charAt(0) + n.substring(1).toLowerCase(java.util.Locale.ROOT);
  }

  /** {@code TaskSchedulingReason}, from the last discarded transaction if any. */
  static Reason taskReason(SessionImpl session, JobState job, TaskState task) {
    TaskStatus status = task.lastStatus != null ? task.lastStatus : task.status;
    String node = task.lastStatus != null ? task.lastNodeName : task.nodeName;
    String pod = task.namespace() + "/" + task.name();
    switch (status) {
      case ALLOCATED:
        return new Reason(
            REASON_SCHEDULABLE,
            "Pod "
                + pod
                + " can possibly be assigned to "
                + node
                + ", once minAvailable is satisfied",
            "");
      case PIPELINED:
        return new Reason(
            REASON_UNSCHEDULABLE,
            "Pod "
                + pod
                + " can possibly be assigned to "
                + node
                + ", once resource is released and minAvailable is satisfied",
            task.evictionOccurred ? node : "");
      default:
        String explicit = session.taskMessage(task);
        if (explicit != null) {
          return new Reason(REASON_UNSCHEDULABLE, explicit, "");
        }
        Map<String, Status> errors = session.fitErrorsOf(task);
        if (!errors.isEmpty()) {
          return new Reason(REASON_UNSCHEDULABLE, nodesMessage(errors), "");
        }
        String msg = jobFitError(session, job);
        return new Reason(
            REASON_UNSCHEDULABLE, msg.isEmpty() ? "all nodes are unavailable" : msg, "");
    }
  }

  /** {@code job.FitError()}. */
  static String jobFitError(SessionImpl session, JobState job) {
    Map<String, Integer> histogram = new TreeMap<>();
    for (TaskStatus s : TaskStatus.values()) {
      int n = job.taskCount(s);
      if (n > 0) {
        histogram.put(statusName(s), n);
      }
    }
    histogram.put("minAvailable", job.minAvailable());
    StringBuilder msg =
        new StringBuilder(job.isReady() ? "pod group is ready" : "pod group is not ready");
    msg.append(", ").append(String.join(", ", sortedHistogram(histogram)));
    Map<String, Integer> pending = new TreeMap<>();
    List<TaskState> sorted = new ArrayList<>(job.taskStates());
    sorted.sort(Comparator.comparing(TaskState::name));
    for (TaskState t : sorted) {
      if (t.status == TaskStatus.PENDING) {
        TaskStatus last = t.lastStatus != null ? t.lastStatus : t.status;
        String reason = last == TaskStatus.ALLOCATED ? REASON_SCHEDULABLE : REASON_UNSCHEDULABLE;
        pending.merge(reason, 1, Integer::sum);
      }
    }
    if (!pending.isEmpty()) {
      msg.append("; Pending: ").append(String.join(", ", sortedHistogram(pending)));
    }
    for (TaskState t : sorted) {
      Map<String, Status> errors = session.fitErrorsOf(t);
      if (!errors.isEmpty()) {
        msg.append(". Origin reason is ")
            .append(t.name())
            .append(": ")
            .append(nodesMessage(errors));
        break;
      }
    }
    return msg.toString();
  }
}
