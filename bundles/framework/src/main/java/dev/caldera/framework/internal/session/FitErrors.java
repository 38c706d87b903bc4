package dev.caldera.framework.internal.session;

import dev.caldera.api.extension.Status;
import dev.caldera.api.info.Blocker;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.resource.ResourceNames;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.support.resource.Resource;
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

  /**
   * {@code TaskSchedulingReason}, from the last discarded transaction if any. {@code queueHold}
   * (may be null) is what holds the task's job when its queue does; a task no node refused then
   * says that, as {@code caldera why} does, instead of the gang's counts.
   */
  static Reason taskReason(SessionImpl session, JobState job, TaskState task, Blocker queueHold) {
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
        String explicit = session.fitErrors().message(task);
        if (explicit != null) {
          return new Reason(REASON_UNSCHEDULABLE, explicit, "");
        }
        Map<String, Status> errors = session.fitErrors().of(task);
        if (!errors.isEmpty()) {
          return new Reason(REASON_UNSCHEDULABLE, nodesMessage(errors), "");
        }
        String tooLarge = largerThanEveryNode(session, task);
        if (tooLarge != null) {
          return new Reason(REASON_UNSCHEDULABLE, tooLarge, "");
        }
        if (queueHold != null) {
          return new Reason(REASON_UNSCHEDULABLE, sentence(queueHold), "");
        }
        String msg = jobFitError(session, job);
        return new Reason(
            REASON_UNSCHEDULABLE, msg.isEmpty() ? "all nodes are unavailable" : msg, "");
    }
  }

  /**
   * A blocker as {@code caldera why} prints it: {@code blocked at enqueue: queue q: cpu requested
   * 8, allocated 4 of capability 8 (plugin capacity)} (the plugins' messages carry the numbers).
   */
  static String sentence(Blocker b) {
    StringBuilder sb = new StringBuilder("blocked");
    if (!b.action().isEmpty()) {
      sb.append(" at ").append(b.action());
    }
    sb.append(": ").append(b.message());
    if (!b.plugin().isEmpty() && !b.message().contains(b.plugin())) {
      sb.append(" (plugin ").append(b.plugin()).append(')');
    }
    return sb.toString();
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
      Map<String, Status> errors = session.fitErrors().of(t);
      String origin = errors.isEmpty() ? null : nodesMessage(errors);
      if (origin == null && t.status == TaskStatus.PENDING) {
        origin = largerThanEveryNode(session, t);
      }
      if (origin != null) {
        msg.append(". Origin reason is ").append(t.name()).append(": ").append(origin);
        break;
      }
    }
    return msg.toString();
  }

  /**
   * For a task no action tried (its job was not enqueued, say): when its request exceeds the
   * allocatable of every node, the message a node filter would give, with the figures ({@code 0/2
   * nodes are unavailable: 2 Insufficient cpu. The pod requests cpu 20; the largest node has 8
   * allocatable.}); null when some node could hold it.
   */
  static String largerThanEveryNode(SessionImpl session, TaskState task) {
    List<NodeInfo> nodes = session.nodes();
    if (nodes.isEmpty()) {
      return null;
    }
    ResourceView request = task.resreq();
    List<String> names = request.resourceNames();
    Map<String, Integer> histogram = new TreeMap<>();
    Map<String, Double> largest = new TreeMap<>();
    for (NodeInfo n : nodes) {
      ResourceView allocatable = n.allocatable();
      boolean fits = true;
      for (String name : names) {
        double want = request.get(name);
        double have = allocatable.get(name);
        largest.merge(name, have, Math::max);
        if (want > have + Resource.EPSILON) {
          fits = false;
          histogram.merge("Insufficient " + name, 1, Integer::sum);
        }
      }
      if (fits) {
        return null;
      }
    }
    List<String> details = new ArrayList<>();
    for (String name : names) {
      double have = largest.getOrDefault(name, 0.0);
      if (request.get(name) > have + Resource.EPSILON) {
        details.add(
            name
                + " "
                + ResourceNames.quantity(name, request.get(name))
                + "; the largest node has "
                + ResourceNames.quantity(name, have)
                + " allocatable");
      }
    }
    if (details.isEmpty()) {
      // Each resource fits some node, but no node has all of them: name the whole request.
      for (String name : names) {
        if (!"pods".equals(name)) {
          details.add(name + " " + ResourceNames.quantity(name, request.get(name)));
        }
      }
      return "0/"
          + nodes.size()
          + " nodes are unavailable: "
          + String.join(", ", sortedHistogram(histogram))
          + ". The pod requests "
          + String.join(", ", details)
          + "; no node has all of it allocatable.";
    }
    return "0/"
        + nodes.size()
        + " nodes are unavailable: "
        + String.join(", ", sortedHistogram(histogram))
        + ". The pod requests "
        + String.join(", ", details)
        + ".";
  }
}
