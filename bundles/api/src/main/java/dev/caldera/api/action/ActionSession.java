package dev.caldera.api.action;

import dev.caldera.api.Session;
import dev.caldera.api.extension.CycleState;
import dev.caldera.api.extension.Status;
import dev.caldera.api.extension.ValidationResult;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import java.util.List;
import java.util.Map;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The session as actions use it: every extension point already combined across plugins and tiers,
 * plus the operations that change the session.
 */
@ProviderType
public interface ActionSession extends Session {

  /** Whether the conf lists the action {@code name}. */
  boolean actionConfigured(String name);

  /** The action's {@code configurations} arguments (empty if none). */
  Map<String, Object> actionArguments(String action);

  // ------------------------------------------------------------ ordering

  /** Combined job order, falling back to creation time then UID. */
  int compareJobs(JobInfo l, JobInfo r);

  /** Combined job order of the plugins only (0 when none decides). */
  int compareJobsByPlugins(JobInfo l, JobInfo r);

  /** Combined queue order, falling back to creation time then name. */
  int compareQueues(QueueInfo l, QueueInfo r);

  /** Combined task order, falling back to pod index, creation time, then UID. */
  int compareTasks(TaskInfo l, TaskInfo r);

  // ------------------------------------------------------------ decisions

  /** OR of the overused functions. */
  boolean overused(QueueInfo queue);

  /** AND of the allocatable functions. */
  boolean allocatable(QueueInfo queue, TaskInfo task);

  /** AND of the preemptive functions. */
  boolean preemptive(QueueInfo queue, List<TaskInfo> tasks);

  /** The first failing pre-predicate, or OK. */
  Status prePredicate(TaskInfo task);

  /** The first failing predicate, or OK (no resource check). */
  Status predicate(TaskInfo task, NodeInfo node);

  /** Scores the nodes: Σ node-order scores plus Σ batch scores, one per node in order. */
  double[] scoreNodes(TaskInfo task, List<NodeInfo> nodes);

  // ------------------------------------------------------------ reusing per-node answers

  /**
   * The task's node-local key: non-null when every enabled predicate, node-order and batch
   * node-order function declared a {@link dev.caldera.api.extension.NodeLocality} with a non-null
   * key for the task. Two tasks with equal keys get the same {@link #predicate} status and the same
   * {@link #scoreNode} on a node whose accounting did not change in between ({@link
   * #nodeChanges()}). Call it after the task's {@link #prePredicate}. The default is null (no
   * reuse).
   */
  default Object nodeLocalKey(TaskInfo task) {
    return null;
  }

  /**
   * The score {@link #scoreNodes} gives {@code node} among any candidates, for a task whose {@link
   * #nodeLocalKey} is non-null: the node-order scores, then the batch scores of that node alone,
   * added in the same order; NaN when a batch function did not succeed.
   */
  default double scoreNode(TaskInfo task, NodeInfo node) {
    return scoreNodes(task, List.of(node))[0];
  }

  /**
   * How many times a node's accounting changed in this session so far (allocate, pipeline, evict,
   * undo, bind): the length of the change log {@link #changedNode} reads. -1 when the session keeps
   * no log, in which case answers must not be reused.
   */
  default int nodeChanges() {
    return -1;
  }

  /**
   * The {@link NodeInfo#index()} of the node whose accounting changed at {@code position} of the
   * change log, {@code 0 <= position < nodeChanges()}.
   */
  default int changedNode(int position) {
    throw new IndexOutOfBoundsException(position);
  }

  /**
   * Counts per-node answers an action reused instead of asking the functions again, for the
   * session's statistics ({@code caldera bench} shows them beside the nodes filtered and scored).
   */
  default void countReusedAnswers(long nodes) {}

  /** Combined preemptable victims (tier rules); empty when none. */
  List<TaskInfo> preemptable(TaskInfo preemptor, List<TaskInfo> candidates);

  /** Combined reclaimable victims (tier rules); empty when none. */
  List<TaskInfo> reclaimable(TaskInfo reclaimer, List<TaskInfo> candidates);

  /** Vote result of the enqueueable functions. */
  boolean jobEnqueueable(JobInfo job);

  /** Notifies the enqueued functions. */
  void jobEnqueued(JobInfo job);

  /** AND of the ready functions. */
  boolean jobReady(JobInfo job);

  /** Vote result of the pipelined functions. */
  boolean jobPipelined(JobInfo job);

  /** The first failing validation, or null. */
  ValidationResult jobValid(JobInfo job);

  /** The starving functions of the first tier that has any. */
  boolean jobStarving(JobInfo job);

  /** Union of victim-task functions of the first tier that gives any. */
  List<TaskInfo> victimTasks(List<TaskInfo> tasks);

  /** AND of the simulate-allocatable functions. */
  boolean simulateAllocatable(CycleState state, QueueInfo queue, TaskInfo task);

  /** The first failing simulate-predicate, or OK. */
  Status simulatePredicate(CycleState state, TaskInfo task, NodeInfo node);

  /** Calls every simulate-add function; the first failure is returned. */
  Status simulateAddTask(
      CycleState state, TaskInfo taskToSchedule, TaskInfo taskToAdd, NodeInfo node);

  /** Calls every simulate-remove function; the first failure is returned. */
  Status simulateRemoveTask(
      CycleState state, TaskInfo taskToSchedule, TaskInfo taskToRemove, NodeInfo node);

  // ------------------------------------------------------------ operations

  /** A new, empty statement. */
  Statement newStatement();

  /**
   * Allocates directly ({@code ssn.Allocate}, used by backfill): the task becomes Allocated and, if
   * its job is then ready, every Allocated task of the job is bound.
   */
  Status allocate(TaskInfo task, NodeInfo node);

  /** Evicts at once ({@code ssn.Evict}, used by shuffle). */
  void evict(TaskInfo task, String reason);

  /** Sets a job's phase in this session (enqueue admits: Pending → Inqueue). */
  void setJobPhase(JobInfo job, PodGroupPhase phase);

  /**
   * Un-pipelines a Pipelined task at once ({@code Statement.UnPipeline}, used by backfill for
   * best-effort tasks): it goes back to Pending, leaves its node, and deallocate handlers run. The
   * operation is not recorded in any statement.
   */
  void unpipeline(TaskInfo task);

  /**
   * Records a fit error of the task that names no node ({@code FitErrors.SetError}): the task's
   * fit-error message is then exactly {@code message}, and it counts for {@link #hasFitErrors}. The
   * default records it on every node instead.
   */
  default void recordTaskMessage(TaskInfo task, String message) {
    recordTaskError(task, Status.unschedulable(message));
  }

  /** Records why a task does not fit a node (kept for events and fit-error messages). */
  void recordFitError(TaskInfo task, String nodeName, Status status);

  /** Records one error for the task on every node (e.g. a failed pre-predicate). */
  void recordTaskError(TaskInfo task, Status status);

  /** Whether fit errors were recorded for the task this session. */
  boolean hasFitErrors(TaskInfo task);

  /** Which nodes already failed the task with an unresolvable status. */
  boolean unresolvableOn(TaskInfo task, String nodeName);

  /** Records which task an eviction made room for (for the report). */
  void recordEvictionFor(TaskInfo victim, TaskInfo evictor);
}
