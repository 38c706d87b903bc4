package dev.caldera.framework.internal.session;

import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.Pod;
import dev.caldera.api.resource.Resource;
import java.time.Instant;
import java.util.Locale;

/** A task in a session: the pod plus the scheduler's status and placement of it. */
final class TaskState implements TaskInfo {

  static final String GROUP_ANNOTATION = "scheduling.k8s.io/group-name";
  static final String VOLCANO_QUEUE_GATE = "scheduling.volcano.sh/queue-allocation-gate";

  private final Pod pod;
  private final String jobId;
  private final Resource resreq;
  private final int priority;
  private final boolean preemptable;
  private final boolean bestEffort;
  private final String taskRole;
  private final boolean gated;
  private final int podIndex;

  TaskStatus status;
  String nodeName;
  boolean evictionOccurred;

  /**
   * Status and node before the last discarded operation ({@code LastTransaction}); null if none.
   */
  TaskStatus lastStatus;

  String lastNodeName;

  TaskState(Pod pod) {
    this.pod = pod;
    String group = pod.metadata().annotations().get(GROUP_ANNOTATION);
    this.jobId = group == null || group.isEmpty() ? "" : pod.namespace() + "/" + group;
    this.resreq = pod.request();
    this.bestEffort = resreq.isEmpty();
    this.priority = priorityOf(pod);
    this.preemptable = preemptableOf(pod);
    String role = pod.metadata().annotationOrLabel("volcano.sh/task-spec");
    this.taskRole = role == null ? "" : role;
    this.gated = pod.schedulingGates().stream().anyMatch(g -> !g.equals(VOLCANO_QUEUE_GATE));
    this.podIndex = podIndex(pod.name());
    this.status = statusOf(pod);
    this.nodeName = pod.nodeName();
  }

  static TaskStatus statusOf(Pod pod) {
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
    String override = pod.metadata().annotations().get("volcano.sh/task-priority");
    if (override != null) {
      try {
        p = Integer.parseInt(override.trim());
      } catch (NumberFormatException e) {
        // Volcano ignores an unparseable override.
      }
    }
    return p;
  }

  private static boolean preemptableOf(Pod pod) {
    String v = pod.metadata().annotationOrLabel("volcano.sh/preemptable");
    if (v == null) {
      return true;
    }
    String t = v.trim().toLowerCase(Locale.ROOT);
    return t.equals("true") || t.equals("1") || t.equals("t");
  }

  /** The numeric last dash-separated segment of a name with at least three segments, else -1. */
  static int podIndex(String name) {
    String[] parts = name.split("-");
    if (parts.length < 3) {
      return -1;
    }
    try {
      return Integer.parseInt(parts[parts.length - 1]);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  int podIndex() {
    return podIndex;
  }

  @Override
  public String uid() {
    return pod.metadata().uid();
  }

  @Override
  public String name() {
    return pod.name();
  }

  @Override
  public String namespace() {
    return pod.namespace();
  }

  @Override
  public String key() {
    return pod.key();
  }

  @Override
  public String jobId() {
    return jobId;
  }

  @Override
  public Pod pod() {
    return pod;
  }

  @Override
  public TaskStatus status() {
    return status;
  }

  @Override
  public String nodeName() {
    return nodeName;
  }

  @Override
  public Resource resreq() {
    return resreq;
  }

  @Override
  public Resource initResreq() {
    return resreq;
  }

  @Override
  public int priority() {
    return priority;
  }

  @Override
  public boolean preemptable() {
    return preemptable;
  }

  @Override
  public boolean bestEffort() {
    return bestEffort;
  }

  @Override
  public String taskRole() {
    return taskRole;
  }

  @Override
  public boolean schedulingGated() {
    return gated;
  }

  @Override
  public Instant creationTimestamp() {
    return pod.metadata().creationTimestamp();
  }

  @Override
  public boolean evictionOccurred() {
    return evictionOccurred;
  }

  @Override
  public String toString() {
    return key() + "(" + status + (nodeName.isEmpty() ? "" : "@" + nodeName) + ")";
  }
}
