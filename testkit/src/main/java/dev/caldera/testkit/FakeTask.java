package dev.caldera.testkit;

import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.Pod;
import dev.caldera.api.resource.Resource;
import java.time.Instant;

/**
 * A task whose pod is built from the setters of {@link AbstractPodBuilder}. Derived values follow
 * Volcano: the request is the pod's request plus one {@code pods}; priority is {@code
 * volcano.sh/task-priority}, else {@code spec.priority}, else 1; preemptable and role come from the
 * {@code volcano.sh/preemptable} and {@code volcano.sh/task-spec} annotations or labels.
 */
public final class FakeTask extends AbstractPodBuilder<FakeTask> implements TaskInfo {

  static final String GROUP_NAME = "scheduling.k8s.io/group-name";
  static final String QUEUE_ALLOCATION_GATE = "scheduling.volcano.sh/queue-allocation-gate";

  private String jobId = "";
  private TaskStatus status = TaskStatus.PENDING;
  private FakeNode node;
  private TaskStatus lastTransactionStatus;
  private boolean evictionOccurred;

  /** A task outside any job: {@code namespace/name} (or a bare name in {@code default}). */
  public FakeTask(String key) {
    super(key);
  }

  FakeTask(FakeJob job, String name) {
    super(job.namespace() + "/" + name);
    this.jobId = job.uid();
    annotation(GROUP_NAME, job.name());
  }

  @Override
  protected FakeTask self() {
    return this;
  }

  // ------------------------------------------------------------ setters

  /** Sets the job id ({@code namespace/podgroup}); jobs set it for their tasks. */
  public FakeTask jobId(String jobId) {
    this.jobId = jobId;
    return this;
  }

  public FakeTask status(TaskStatus status) {
    this.status = status;
    return this;
  }

  /** Places the task on {@code node} (moving it off its previous node); null removes it. */
  public FakeTask on(FakeNode node) {
    if (this.node != null) {
      this.node.unplace(this);
    }
    this.node = node;
    if (node != null) {
      node.place(this);
    }
    return this;
  }

  /** Sets the {@code volcano.sh/task-spec} role. */
  public FakeTask role(String role) {
    return annotation("volcano.sh/task-spec", role);
  }

  /** Sets the {@code volcano.sh/preemptable} annotation. */
  public FakeTask preemptable(boolean preemptable) {
    return annotation("volcano.sh/preemptable", Boolean.toString(preemptable));
  }

  /** What {@link FakeSession#lastTransactionStatus} answers (the current status unless set). */
  public FakeTask lastTransactionStatus(TaskStatus status) {
    this.lastTransactionStatus = status;
    return this;
  }

  public FakeTask evictionOccurred(boolean evictionOccurred) {
    this.evictionOccurred = evictionOccurred;
    return this;
  }

  /** The status set by {@link #lastTransactionStatus(TaskStatus)}, else the current one. */
  public TaskStatus lastTransactionStatus() {
    return lastTransactionStatus != null ? lastTransactionStatus : status;
  }

  // ------------------------------------------------------------ TaskInfo

  @Override
  public String uid() {
    return podUid();
  }

  @Override
  public String name() {
    return podName();
  }

  @Override
  public String namespace() {
    return podNamespace();
  }

  @Override
  public String jobId() {
    return jobId;
  }

  @Override
  public Pod pod() {
    return buildPod(nodeName(), phaseOf(status));
  }

  private static String phaseOf(TaskStatus status) {
    return switch (status) {
      case RUNNING, RELEASING -> "Running";
      case SUCCEEDED -> "Succeeded";
      case FAILED -> "Failed";
      case UNKNOWN -> "Unknown";
      default -> "Pending";
    };
  }

  @Override
  public TaskStatus status() {
    return status;
  }

  @Override
  public String nodeName() {
    return node == null ? "" : node.name();
  }

  @Override
  public Resource resreq() {
    return Resources.podRequest(pod());
  }

  @Override
  public Resource initResreq() {
    return resreq();
  }

  @Override
  public int priority() {
    String override = annotationOrLabel("volcano.sh/task-priority");
    if (override != null) {
      return Integer.parseInt(override.trim());
    }
    return specPriority() != null ? specPriority() : 1;
  }

  @Override
  public boolean preemptable() {
    String v = annotationOrLabel("volcano.sh/preemptable");
    return v == null || "true".equalsIgnoreCase(v.trim());
  }

  @Override
  public boolean bestEffort() {
    return initResreq().isEmpty();
  }

  @Override
  public String taskRole() {
    String v = annotationOrLabel("volcano.sh/task-spec");
    return v == null ? "" : v;
  }

  @Override
  public boolean schedulingGated() {
    for (String gate : gates()) {
      if (!gate.equals(QUEUE_ALLOCATION_GATE)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public Instant creationTimestamp() {
    return created();
  }

  @Override
  public boolean evictionOccurred() {
    return evictionOccurred;
  }

  @Override
  public String toString() {
    return "FakeTask[" + key() + " " + status + (node == null ? "" : " on " + node.name()) + "]";
  }
}
