package dev.caldera.api.info;

import dev.caldera.api.model.PodGroup;
import dev.caldera.api.resource.ResourceView;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.osgi.annotation.versioning.ProviderType;

/** A read-only view of a job (a PodGroup and its tasks) in a session. */
@ProviderType
public interface JobInfo {

  /** {@code namespace/name} of the pod group. */
  String uid();

  /** The pod group name. */
  String name();

  /** The pod group namespace. */
  String namespace();

  /** The queue name ({@code spec.queue}, or the default queue). */
  String queue();

  /** The pod group as read from the cluster. */
  PodGroup podGroup();

  /** The phase in this session (enqueue may have changed it). */
  PodGroupPhase phase();

  /** {@code spec.minMember}. */
  int minAvailable();

  /** {@code spec.minTaskMember}: role → minimum. */
  Map<String, Integer> taskMinAvailable();

  /** Sum of {@link #taskMinAvailable()}. */
  int taskMinAvailableTotal();

  /** The value of the pod group's priority class (or the global default, else 0). */
  int priority();

  /** The pod group's creation time. */
  Instant creationTimestamp();

  /** {@code volcano.sh/preemptable} on the pod group; default false. */
  boolean preemptable();

  /** All tasks, ordered by UID. */
  List<TaskInfo> tasks();

  /** How many tasks have {@code status}. */
  int taskCount(TaskStatus status);

  /** Σ request of tasks in an allocated status. */
  ResourceView allocated();

  /** Σ request of all tasks. */
  ResourceView totalRequest();

  /** {@code spec.minResources}, or null when unset. */
  ResourceView minResources();

  /** {@code ReadyTaskNum}: Bound, Binding, Running, Allocated, Succeeded. */
  int readyTaskNum();

  /** {@code WaitingTaskNum}: Pipelined. */
  int waitingTaskNum();

  /** Pending tasks that request nothing. */
  int pendingBestEffortTaskNum();

  /** {@code ValidTaskNum}. */
  int validTaskNum();

  /** {@code IsPending}: phase Pending. */
  default boolean isPending() {
    return phase() == PodGroupPhase.Pending;
  }

  /** {@code IsReady}: ready + pending best-effort ≥ minAvailable. */
  default boolean isReady() {
    return readyTaskNum() + pendingBestEffortTaskNum() >= minAvailable();
  }

  /** {@code IsPipelined}: waiting + ready + pending best-effort ≥ minAvailable. */
  default boolean isPipelined() {
    return waitingTaskNum() + readyTaskNum() + pendingBestEffortTaskNum() >= minAvailable();
  }

  /** {@code IsStarving}: {@code waiting + ready < minAvailable}. */
  default boolean isStarving() {
    return waitingTaskNum() + readyTaskNum() < minAvailable();
  }

  /** {@code CheckTaskValid}: every role has enough valid tasks. */
  boolean checkTaskValid();

  /** {@code CheckTaskReady}: every role has enough occupied tasks. */
  boolean checkTaskReady();

  /** {@code CheckTaskPipelined}: as {@link #checkTaskReady()}, counting Pipelined too. */
  boolean checkTaskPipelined();

  /**
   * {@code GetElasticResources}: the part of {@link #allocated()} above {@link #minResources()}.
   */
  ResourceView elasticResources();

  /**
   * {@code DeductSchGatedResources(GetInqueueResource(job, allocated))}: the part of the minimum
   * still to be allocated, as the enqueue accounting of proportion and capacity counts it.
   */
  ResourceView inqueueResources();

  /** {@code DeductSchGatedResources(res)}: {@code res} less gated tasks' requests, clamped at 0. */
  ResourceView deductSchedulingGated(ResourceView res);
}
