package dev.caldera.testkit;

import dev.caldera.api.info.PodFacts;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.Pod;
import dev.caldera.api.placement.PodPlacement;
import dev.caldera.support.placement.PodPlacements;
import dev.caldera.support.resource.Resource;
import java.time.Instant;

/**
 * A task whose pod is built from the setters of {@link AbstractPodBuilder}. The request is the
 * pod's request (with one {@code pods}); priority, preemptable, role and gating are read from the
 * pod by the API's {@link PodFacts}, as the scheduler reads them. The status is the one set here.
 */
public final class FakeTask extends AbstractPodBuilder<FakeTask> implements TaskInfo {

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
    annotation(PodFacts.GROUP_NAME, job.name());
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
    return annotation(PodFacts.TASK_SPEC, role);
  }

  /** Sets the {@code volcano.sh/preemptable} annotation. */
  public FakeTask preemptable(boolean preemptable) {
    return annotation(PodFacts.PREEMPTABLE, Boolean.toString(preemptable));
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

  /** The pod's placement terms, parsed from the pod as it is now on every call. */
  @Override
  public PodPlacement placement() {
    return PodPlacements.of(pod());
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

  /** The pod facts the scheduler reads, by the API's one reader ({@link PodFacts}). */
  private PodFacts facts() {
    return PodFacts.of(pod());
  }

  @Override
  public int priority() {
    return facts().priority();
  }

  @Override
  public boolean preemptable() {
    return facts().preemptable();
  }

  @Override
  public boolean bestEffort() {
    return initResreq().isEmpty();
  }

  @Override
  public String taskRole() {
    return facts().taskRole();
  }

  @Override
  public boolean schedulingGated() {
    return facts().schedulingGated();
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
