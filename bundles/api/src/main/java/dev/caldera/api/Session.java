package dev.caldera.api;

import dev.caldera.api.extension.CycleState;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.PodCondition;
import dev.caldera.api.resource.ResourceView;
import java.time.Instant;
import java.util.List;
import org.osgi.annotation.versioning.ProviderType;

/**
 * What a plugin sees of one scheduling session: a consistent snapshot whose task statuses and node
 * accounting change as actions decide. All lists are in a deterministic order.
 */
@ProviderType
public interface Session {

  /** A unique id for this session. */
  String uid();

  /** The clock the scheduler sees. */
  Instant now();

  /** Every job whose queue exists, ordered by UID ({@code namespace/name}). */
  List<JobInfo> jobs();

  /** A job by UID, or null. */
  JobInfo job(String uid);

  /** Every ready node, in the order nodes were first seen. */
  List<NodeInfo> nodes();

  /** A node by name, or null. */
  NodeInfo node(String name);

  /** Every queue, ordered by name. */
  List<QueueInfo> queues();

  /** A queue by name, or null. */
  QueueInfo queue(String name);

  /** Σ allocatable over the nodes. */
  ResourceView totalResource();

  /** Priority classes, PDBs, quotas, namespaces and node metrics. */
  ClusterInfo cluster();

  /**
   * The topology counts over the pods counted on the session's nodes ({@link NodeInfo#pods()}),
   * shared by every plugin and kept up to date by the framework: where the inter-pod affinity and
   * topology spread filters and scores find them (see {@link
   * dev.caldera.api.placement.SessionTopology}).
   */
  dev.caldera.api.placement.SessionTopology topology();

  /** The scratch state of a task for this session (created on first use). */
  CycleState cycleState(TaskInfo task);

  /**
   * Orders victims for eviction, first to evict first ({@code BuildVictimsPriorityQueue}): within a
   * job the reverse of task order, then by job order in one queue, else by victim-queue order.
   */
  List<TaskInfo> victimOrder(List<TaskInfo> victims, TaskInfo evictor);

  /**
   * Records an event on an object.
   *
   * @param kind {@code Pod}, {@code PodGroup} or {@code Queue}
   * @param key {@code namespace/name}, or the name for a queue
   * @param type {@code Normal} or {@code Warning}
   */
  void recordEvent(String kind, String key, String type, String reason, String message);

  /** Sets a condition on a job's pod group, replacing one of the same type. */
  void setPodGroupCondition(JobInfo job, PodCondition condition);

  /**
   * Why the job's tasks did not fit ({@code job.FitError()}), as used in gang's unschedulable
   * condition.
   */
  String jobFitError(JobInfo job);

  /**
   * Reports why {@code job} does not run: the framework keeps the last blocker reported for a job
   * in a session and shows it to operators ({@code caldera why}, the admin API). A plugin reports
   * where it refuses (an enqueue vote, an allocatable check, a policy denial), with the numbers;
   * the plugin name is filled in when the blocker names none.
   */
  default void reportBlocker(JobInfo job, dev.caldera.api.info.Blocker blocker) {}

  /**
   * Reports why no job of {@code queue} gets resources now (an overused queue), for the jobs of the
   * queue that no more specific blocker explains.
   */
  default void reportQueueBlocker(QueueInfo queue, dev.caldera.api.info.Blocker blocker) {}

  /**
   * Reports a quota of {@code queue} that a plugin keeps itself (capacity-card: cards per model),
   * one figure per item: what the queue holds ({@code allocated}) against the quota ({@code
   * limit}); {@code requested} is unused. Shown with the queue ({@code /api/queues}, the console).
   * Called at session close, when allocation is done; a later report replaces an earlier one.
   */
  default void reportQueueQuota(
      QueueInfo queue, java.util.List<dev.caldera.api.info.Blocker.Figure> figures) {}

  /**
   * Reports how the cards of {@code node} are used (one entry per card kind: whole cards, MIG and
   * MPS slices), for operators ({@code /api/nodes}, {@code caldera nodes}, the console). Called at
   * session close; a later report for a node replaces an earlier one.
   */
  default void reportNodeCards(NodeInfo node, java.util.List<dev.caldera.api.info.CardUse> cards) {}

  /** The task's status before its last discarded operation, else its current status. */
  default dev.caldera.api.info.TaskStatus lastTransactionStatus(TaskInfo task) {
    return task.status();
  }
}
