package dev.caldera.framework.internal.actions;

import dev.caldera.api.ClusterInfo;
import dev.caldera.api.action.ActionSession;
import dev.caldera.api.action.Statement;
import dev.caldera.api.extension.CycleState;
import dev.caldera.api.extension.Status;
import dev.caldera.api.extension.ValidationResult;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.support.resource.Resource;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeQueue;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleBiFunction;

/**
 * An {@link ActionSession} over the test kit's fakes, with plain defaults that a test overrides
 * with the public function fields: predicates pass, every candidate is a victim, scores are 0,
 * queues are allocatable and never overused; a job is ready, pipelined and starving by its counts.
 * Statements change the fake tasks at once (evict → Releasing, pipeline → Pipelined on the node,
 * allocate → Allocated on the node), record what a commit sends, and undo on discard.
 */
final class FakeActionSession implements ActionSession {

  final FakeSession base = new FakeSession();

  BiFunction<TaskInfo, NodeInfo, Status> predicate = (t, n) -> Status.OK;
  Function<TaskInfo, Status> prePredicate = t -> Status.OK;
  ToDoubleBiFunction<TaskInfo, NodeInfo> score = (t, n) -> 0;
  BiFunction<TaskInfo, List<TaskInfo>, List<TaskInfo>> preemptable = (t, c) -> c;
  BiFunction<TaskInfo, List<TaskInfo>, List<TaskInfo>> reclaimable = (t, c) -> c;
  BiPredicate<QueueInfo, TaskInfo> allocatable = (q, t) -> true;
  Predicate<QueueInfo> overused = q -> false;
  Predicate<JobInfo> enqueueable = j -> true;
  Function<List<TaskInfo>, List<TaskInfo>> victimTasks = tasks -> List.of();

  /** The simulated predicate, given the tasks the simulation removed from the node. */
  BiFunction<List<TaskInfo>, NodeInfo, Status> simulatePredicate = (removed, n) -> Status.OK;

  /** Whether the queue may take the task, given the tasks the simulation removed. */
  BiPredicate<List<TaskInfo>, TaskInfo> simulateAllocatable = (removed, t) -> true;

  Comparator<TaskInfo> taskOrder = Comparator.comparing(TaskInfo::name);
  Map<String, Map<String, Object>> arguments = new HashMap<>();
  List<String> configuredActions = new ArrayList<>();

  final List<String> evicted = new ArrayList<>();
  final List<String> bound = new ArrayList<>();
  final List<String> enqueued = new ArrayList<>();
  final Map<String, Map<String, Status>> fitErrors = new LinkedHashMap<>();
  final Map<String, String> evictedFor = new LinkedHashMap<>();
  int scoreCalls;

  // ------------------------------------------------------------ building

  FakeNode addNode(String name, String... allocatable) {
    return base.addNode(name).allocatable(allocatable);
  }

  FakeQueue addQueue(String name) {
    return base.addQueue(name);
  }

  FakeJob addJob(String uid, String queue, int minMember) {
    return base.addJob(uid).queue(queue).minMember(minMember).phase(PodGroupPhase.Inqueue);
  }

  // ------------------------------------------------------------ Session

  @Override
  public String uid() {
    return base.uid();
  }

  @Override
  public Instant now() {
    return base.now();
  }

  @Override
  public List<JobInfo> jobs() {
    return base.jobs();
  }

  @Override
  public JobInfo job(String uid) {
    return base.job(uid);
  }

  @Override
  public List<NodeInfo> nodes() {
    return base.nodes();
  }

  @Override
  public NodeInfo node(String name) {
    return base.node(name);
  }

  @Override
  public List<QueueInfo> queues() {
    return base.queues();
  }

  @Override
  public QueueInfo queue(String name) {
    return base.queue(name);
  }

  @Override
  public Resource totalResource() {
    return base.totalResource();
  }

  @Override
  public ClusterInfo cluster() {
    return base.cluster();
  }

  @Override
  public dev.caldera.api.placement.SessionTopology topology() {
    return base.topology();
  }

  @Override
  public CycleState cycleState(TaskInfo task) {
    return base.cycleState(task);
  }

  @Override
  public List<TaskInfo> victimOrder(List<TaskInfo> victims, TaskInfo evictor) {
    List<TaskInfo> sorted = new ArrayList<>(victims);
    sorted.sort(taskOrder.reversed());
    return sorted;
  }

  @Override
  public void recordEvent(String kind, String key, String type, String reason, String message) {
    base.recordEvent(kind, key, type, reason, message);
  }

  @Override
  public void setPodGroupCondition(JobInfo job, dev.caldera.api.model.PodCondition condition) {
    base.setPodGroupCondition(job, condition);
  }

  @Override
  public String jobFitError(JobInfo job) {
    return base.jobFitError(job);
  }

  // ------------------------------------------------------------ ActionSession

  @Override
  public boolean actionConfigured(String name) {
    return configuredActions.contains(name);
  }

  @Override
  public Map<String, Object> actionArguments(String action) {
    return arguments.getOrDefault(action, Map.of());
  }

  @Override
  public int compareJobs(JobInfo l, JobInfo r) {
    int c = Integer.compare(r.priority(), l.priority());
    return c != 0 ? c : l.uid().compareTo(r.uid());
  }

  @Override
  public int compareJobsByPlugins(JobInfo l, JobInfo r) {
    return Integer.compare(r.priority(), l.priority());
  }

  @Override
  public int compareQueues(QueueInfo l, QueueInfo r) {
    return l.name().compareTo(r.name());
  }

  @Override
  public int compareTasks(TaskInfo l, TaskInfo r) {
    return taskOrder.compare(l, r);
  }

  @Override
  public boolean overused(QueueInfo queue) {
    return overused.test(queue);
  }

  @Override
  public boolean allocatable(QueueInfo queue, TaskInfo task) {
    return allocatable.test(queue, task);
  }

  @Override
  public boolean preemptive(QueueInfo queue, List<TaskInfo> tasks) {
    return true;
  }

  @Override
  public Status prePredicate(TaskInfo task) {
    return prePredicate.apply(task);
  }

  @Override
  public Status predicate(TaskInfo task, NodeInfo node) {
    return predicate.apply(task, node);
  }

  @Override
  public double[] scoreNodes(TaskInfo task, List<NodeInfo> nodes) {
    scoreCalls++;
    double[] out = new double[nodes.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = score.applyAsDouble(task, nodes.get(i));
    }
    return out;
  }

  @Override
  public List<TaskInfo> preemptable(TaskInfo preemptor, List<TaskInfo> candidates) {
    return preemptable.apply(preemptor, candidates);
  }

  @Override
  public List<TaskInfo> reclaimable(TaskInfo reclaimer, List<TaskInfo> candidates) {
    return reclaimable.apply(reclaimer, candidates);
  }

  @Override
  public boolean jobEnqueueable(JobInfo job) {
    return enqueueable.test(job);
  }

  @Override
  public void jobEnqueued(JobInfo job) {
    enqueued.add(job.uid());
  }

  @Override
  public boolean jobReady(JobInfo job) {
    return job.readyTaskNum() >= job.minAvailable();
  }

  @Override
  public boolean jobPipelined(JobInfo job) {
    return job.readyTaskNum() + job.waitingTaskNum() >= job.minAvailable();
  }

  @Override
  public ValidationResult jobValid(JobInfo job) {
    return null;
  }

  @Override
  public boolean jobStarving(JobInfo job) {
    return job.isStarving();
  }

  @Override
  public List<TaskInfo> victimTasks(List<TaskInfo> tasks) {
    return victimTasks.apply(tasks);
  }

  @Override
  public boolean simulateAllocatable(CycleState state, QueueInfo queue, TaskInfo task) {
    return simulateAllocatable.test(removed(state), task);
  }

  @Override
  public Status simulatePredicate(CycleState state, TaskInfo task, NodeInfo node) {
    return simulatePredicate.apply(removed(state), node);
  }

  @Override
  public Status simulateAddTask(
      CycleState state, TaskInfo taskToSchedule, TaskInfo taskToAdd, NodeInfo node) {
    removed(state).remove(taskToAdd);
    return Status.OK;
  }

  @Override
  public Status simulateRemoveTask(
      CycleState state, TaskInfo taskToSchedule, TaskInfo taskToRemove, NodeInfo node) {
    removed(state).add(taskToRemove);
    return Status.OK;
  }

  /** The simulation's removed tasks, kept in the copied cycle state. */
  private static List<TaskInfo> removed(CycleState state) {
    Removed r = (Removed) state.read(Removed.KEY);
    if (r == null) {
      r = new Removed(new ArrayList<>());
      state.write(Removed.KEY, r);
    }
    return r.tasks;
  }

  private record Removed(List<TaskInfo> tasks) implements CycleState.Data {
    static final String KEY = "removed";

    @Override
    public CycleState.Data copy() {
      return new Removed(new ArrayList<>(tasks));
    }
  }

  @Override
  public Statement newStatement() {
    return new FakeStatement();
  }

  @Override
  public Status allocate(TaskInfo task, NodeInfo node) {
    ((FakeTask) task).status(TaskStatus.ALLOCATED).on((FakeNode) node);
    bound.add(task.key() + "@" + node.name());
    return Status.OK;
  }

  @Override
  public void evict(TaskInfo task, String reason) {
    ((FakeTask) task).status(TaskStatus.RELEASING);
    evicted.add(task.key() + ":" + reason);
  }

  @Override
  public void unpipeline(TaskInfo task) {
    ((FakeTask) task).status(TaskStatus.PENDING).on(null);
  }

  @Override
  public void setJobPhase(JobInfo job, PodGroupPhase phase) {
    ((FakeJob) job).phase(phase);
  }

  @Override
  public void recordFitError(TaskInfo task, String nodeName, Status status) {
    fitErrors.computeIfAbsent(task.key(), k -> new LinkedHashMap<>()).put(nodeName, status);
  }

  @Override
  public void recordTaskError(TaskInfo task, Status status) {
    for (NodeInfo n : nodes()) {
      recordFitError(task, n.name(), status);
    }
  }

  @Override
  public void recordTaskMessage(TaskInfo task, String message) {
    recordFitError(task, "", Status.unschedulable(message));
  }

  @Override
  public boolean hasFitErrors(TaskInfo task) {
    return fitErrors.containsKey(task.key());
  }

  @Override
  public boolean unresolvableOn(TaskInfo task, String nodeName) {
    Status s = fitErrors.getOrDefault(task.key(), Map.of()).get(nodeName);
    return s != null && s.code() == Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE;
  }

  @Override
  public void recordEvictionFor(TaskInfo victim, TaskInfo evictor) {
    evictedFor.put(victim.key(), evictor.key());
  }

  /** The task's state before an operation, for discard. */
  private record Undo(FakeTask task, TaskStatus status, FakeNode node, String sent) {}

  private final class FakeStatement implements Statement {

    private final List<Undo> ops = new ArrayList<>();

    @Override
    public void evict(TaskInfo task, String reason) {
      FakeTask t = (FakeTask) task;
      ops.add(new Undo(t, t.status(), base.node(t.nodeName()), "evict " + t.key() + ":" + reason));
      t.status(TaskStatus.RELEASING);
    }

    @Override
    public Status pipeline(TaskInfo task, NodeInfo node, boolean evictionOccurred) {
      FakeTask t = (FakeTask) task;
      ops.add(new Undo(t, t.status(), base.node(t.nodeName()), null));
      t.status(TaskStatus.PIPELINED).on((FakeNode) node).evictionOccurred(evictionOccurred);
      return Status.OK;
    }

    @Override
    public Status allocate(TaskInfo task, NodeInfo node) {
      FakeTask t = (FakeTask) task;
      String sent = "bind " + t.key() + "@" + node.name();
      ops.add(new Undo(t, t.status(), base.node(t.nodeName()), sent));
      t.status(TaskStatus.ALLOCATED).on((FakeNode) node);
      return Status.OK;
    }

    @Override
    public void commit() {
      for (Undo op : ops) {
        if (op.sent == null) {
          continue;
        }
        if (op.sent.startsWith("evict ")) {
          evicted.add(op.sent.substring(6));
        } else {
          bound.add(op.sent.substring(5));
        }
      }
      ops.clear();
    }

    @Override
    public void discard() {
      for (int i = ops.size() - 1; i >= 0; i--) {
        Undo op = ops.get(i);
        op.task.status(op.status);
        String node = op.node == null ? "" : op.node.name();
        if (!node.equals(op.task.nodeName())) {
          op.task.on(op.node);
        }
      }
      ops.clear();
    }

    @Override
    public void merge(Statement other) {
      FakeStatement o = (FakeStatement) other;
      ops.addAll(o.ops);
      o.ops.clear();
    }

    @Override
    public boolean isEmpty() {
      return ops.isEmpty();
    }
  }
}
