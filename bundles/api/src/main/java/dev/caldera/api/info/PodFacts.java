package dev.caldera.api.info;

import dev.caldera.api.model.Pod;
import java.util.Locale;

/**
 * What the scheduler reads from a pod's fields and Volcano annotations, parsed once ({@code
 * api/pod_info.go}, {@code NewTaskInfo}). The one reader of these facts: the framework's sessions,
 * the test kit's fakes and {@code caldera policy test} all take them from here, so a spelling means
 * the same everywhere.
 *
 * @param jobId {@code namespace/<scheduling.k8s.io/group-name>}, or empty without the annotation
 * @param priority {@code volcano.sh/task-priority} (annotation, an integer; an unparseable value is
 *     ignored), else {@code spec.priority}, else 1
 * @param preemptable {@code volcano.sh/preemptable} (annotation, then label) read by {@link
 *     #isTrue}; true when absent
 * @param taskRole {@code volcano.sh/task-spec} (annotation, then label), or empty
 * @param schedulingGated whether the pod has a scheduling gate other than Volcano's
 *     queue-allocation gate
 * @param status the status the pod's phase, node and deletion give ({@link #statusOf})
 */
public record PodFacts(
    String jobId,
    int priority,
    boolean preemptable,
    String taskRole,
    boolean schedulingGated,
    TaskStatus status) {

  /** The annotation naming a pod's pod group. */
  public static final String GROUP_NAME = "scheduling.k8s.io/group-name";

  /** Overrides a pod's priority. */
  public static final String TASK_PRIORITY = "volcano.sh/task-priority";

  /** On a pod (default true) or a pod group (default false). */
  public static final String PREEMPTABLE = "volcano.sh/preemptable";

  /** A task's role within its job. */
  public static final String TASK_SPEC = "volcano.sh/task-spec";

  /** Volcano's own gate, which does not make a pod scheduling-gated. */
  public static final String QUEUE_ALLOCATION_GATE = "scheduling.volcano.sh/queue-allocation-gate";

  /** Reads {@code pod}. */
  public static PodFacts of(Pod pod) {
    String role = pod.metadata().annotationOrLabel(TASK_SPEC);
    String preemptable = pod.metadata().annotationOrLabel(PREEMPTABLE);
    return new PodFacts(
        jobKey(pod),
        priorityOf(pod),
        preemptable == null || isTrue(preemptable),
        role == null ? "" : role,
        gatedBeyondQueueAllocation(pod.schedulingGates()),
        statusOf(pod));
  }

  /**
   * The key ({@code namespace/name}) of the pod group the pod names in {@link #GROUP_NAME}, the job
   * a session puts it in; empty when it names none.
   */
  public static String jobKey(Pod pod) {
    String group = pod.metadata().annotations().get(GROUP_NAME);
    return group == null || group.isEmpty() ? "" : pod.namespace() + "/" + group;
  }

  private static boolean gatedBeyondQueueAllocation(java.util.List<String> gates) {
    for (String gate : gates) {
      if (!gate.equals(QUEUE_ALLOCATION_GATE)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether an annotation or label value means true: {@code true}, {@code t} or {@code 1}, ignoring
   * case and surrounding blanks (Go's {@code strconv.ParseBool} spellings of true). Anything else,
   * an unparseable value included, is false, as Volcano reads it.
   */
  public static boolean isTrue(String value) {
    String t = value.trim().toLowerCase(Locale.ROOT);
    return t.equals("true") || t.equals("1") || t.equals("t");
  }

  /**
   * The status a pod's phase gives: Running (Releasing while deleting), Pending (Bound with a node,
   * Releasing while deleting), Succeeded, Failed, else Unknown ({@code getTaskStatus}).
   */
  public static TaskStatus statusOf(Pod pod) {
    boolean deleting = pod.metadata().deletionTimestamp() != null;
    return switch (pod.phase()) {
      case "Running" -> deleting ? TaskStatus.RELEASING : TaskStatus.RUNNING;
      case "Pending" -> {
        if (deleting) {
          yield TaskStatus.RELEASING;
        }
        yield pod.nodeName().isEmpty() ? TaskStatus.PENDING : TaskStatus.BOUND;
      }
      case "Succeeded" -> TaskStatus.SUCCEEDED;
      case "Failed" -> TaskStatus.FAILED;
      default -> TaskStatus.UNKNOWN;
    };
  }

  private static int priorityOf(Pod pod) {
    int p = pod.priority() == null ? 1 : pod.priority();
    String override = pod.metadata().annotations().get(TASK_PRIORITY);
    if (override != null) {
      try {
        p = Integer.parseInt(override.trim());
      } catch (NumberFormatException e) {
        // Volcano ignores an unparseable override.
      }
    }
    return p;
  }
}
