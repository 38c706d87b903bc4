package dev.caldera.framework.internal.session;

import static dev.caldera.framework.ExtensionTable.Combination.EVERY;

import dev.caldera.api.ClusterInfo;
import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.action.ActionSession;
import dev.caldera.api.action.Statement;
import dev.caldera.api.extension.CycleState;
import dev.caldera.api.extension.Status;
import dev.caldera.api.extension.ValidationResult;
import dev.caldera.api.info.Blocker;
import dev.caldera.api.info.CardUse;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.PodCondition;
import dev.caldera.framework.conf.SchedulerConf;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One scheduling session as actions see it. The snapshot's state is the {@link SessionState}'s; the
 * functions plugins registered are frozen per point by the {@link
 * dev.caldera.framework.ExtensionTable} and dispatched by {@link Ordering}, {@link NodeFunctions},
 * {@link Verdicts} and {@link VictimSelection}; decisions go to the {@link Ledger}, fit errors to
 * the {@link FitErrorStore}, why jobs wait to the {@link Blockers}.
 */
public final class SessionImpl extends SessionState implements ActionSession {

  private final NodeChangeLog nodeChanges;
  private final Registrations registrations = new Registrations();
  private final Ledger ledger;
  private final Blockers blockers = new Blockers();
  private final FitErrorStore fitErrors = new FitErrorStore();
  final FunctionTimes functionTimes = new FunctionTimes();
  private EvictionGuard evictionGuard;

  // The dispatch of the functions plugins registered, once every plugin has opened.
  private Ordering ordering;
  private NodeFunctions nodeFunctions;
  private Verdicts verdicts;
  private VictimSelection victims;

  SessionImpl(
      String uid,
      Instant now,
      SchedulerConf conf,
      ClusterInfo clusterInfo,
      List<JobState> jobs,
      List<NodeState> nodes,
      NodeChangeLog nodeChanges,
      List<QueueState> queues) {
    super(uid, now, conf, clusterInfo, jobs, nodes, queues);
    this.nodeChanges = nodeChanges;
    this.ledger = new Ledger(jobMap(), nodeMap());
  }

  /** Sets the eviction budgets, backoff and holds this session keeps to; before {@link #freeze}. */
  void evictionGuard(EvictionGuard guard) {
    this.evictionGuard = guard;
  }

  /** The loop's eviction guard, or null when the session runs without one. */
  EvictionGuard evictionGuard() {
    return evictionGuard;
  }

  /** Where this session's decisions are applied and recorded. */
  Ledger ledger() {
    return ledger;
  }

  Registrations registrations() {
    return registrations;
  }

  Blockers blockers() {
    return blockers;
  }

  FitErrorStore fitErrors() {
    return fitErrors;
  }

  NodeFunctions nodeFunctions() {
    return nodeFunctions;
  }

  /** Fixes the functions of every extension point once every plugin has registered. */
  void freeze() {
    Registrations.Frozen f = registrations.freeze(conf().tiers(), functionTimes);
    ordering = new Ordering(f, jobMap(), queueMap());
    nodeFunctions = new NodeFunctions(f, evictionGuard);
    verdicts = new Verdicts(f, blockers, jobMap());
    victims = new VictimSelection(f, evictionGuard);
    ledger.eventHandlers(f.get(ExtensionPoint.EVENT_HANDLER, EVERY).fnList());
    ledger.preBinds(f.get(ExtensionPoint.PRE_BIND, EVERY).fnList());
  }

  /** The action whose {@code execute} runs now, named in the blockers reported under it. */
  void startAction(String name) {
    blockers.startAction(name);
  }

  /** Gives the fit errors kube-scheduler's reasons ({@link FitErrorStore#inKubeSchedulerOrder}). */
  void fitErrorsInKubeSchedulerOrder() {
    Set<String> wanted = fitErrors.tasksWithUnresolvableErrors();
    if (wanted.isEmpty()) {
      return;
    }
    Map<String, TaskInfo> tasks = new HashMap<>();
    for (JobState job : jobMap().values()) {
      for (TaskState t : job.taskStates()) {
        if (wanted.contains(t.uid())) {
          tasks.put(t.uid(), t);
        }
      }
    }
    fitErrors.inKubeSchedulerOrder(tasks, nodeMap(), this::predicate);
  }

  // ================================================================= Session

  @Override
  public void recordEvent(String kind, String key, String type, String reason, String message) {
    ledger.recordEvent(kind, key, type, reason, message);
  }

  @Override
  public void setPodGroupCondition(JobInfo job, PodCondition condition) {
    ledger.setPodGroupCondition(job, condition);
  }

  @Override
  public String jobFitError(JobInfo job) {
    return FitErrors.jobFitError(this, Ledger.job(job));
  }

  @Override
  public TaskStatus lastTransactionStatus(TaskInfo task) {
    TaskState t = Ledger.task(task);
    return t.lastStatus != null ? t.lastStatus : t.status;
  }

  @Override
  public List<TaskInfo> victimOrder(List<TaskInfo> victims, TaskInfo evictor) {
    return ordering.victimOrder(victims, evictor);
  }

  @Override
  public void reportBlocker(JobInfo job, Blocker blocker) {
    blockers.report(job, blocker);
  }

  @Override
  public void reportQueueBlocker(QueueInfo queue, Blocker blocker) {
    blockers.reportQueue(queue, blocker);
  }

  @Override
  public void reportQueueQuota(QueueInfo queue, List<Blocker.Figure> figures) {
    blockers.reportQueueQuota(queue, figures);
  }

  @Override
  public void reportNodeCards(NodeInfo node, List<CardUse> cards) {
    blockers.reportNodeCards(node, cards);
  }

  // ================================================================= ActionSession: ordering

  @Override
  public int compareJobs(JobInfo l, JobInfo r) {
    return ordering.compareJobs(l, r);
  }

  @Override
  public int compareJobsByPlugins(JobInfo l, JobInfo r) {
    return ordering.compareJobsByPlugins(l, r);
  }

  @Override
  public int compareQueues(QueueInfo l, QueueInfo r) {
    return ordering.compareQueues(l, r);
  }

  @Override
  public int compareTasks(TaskInfo l, TaskInfo r) {
    return ordering.compareTasks(l, r);
  }

  // ================================================================= ActionSession: decisions

  @Override
  public boolean overused(QueueInfo queue) {
    return verdicts.overused(queue);
  }

  @Override
  public boolean allocatable(QueueInfo queue, TaskInfo task) {
    return verdicts.allocatable(queue, task);
  }

  @Override
  public boolean preemptive(QueueInfo queue, List<TaskInfo> tasks) {
    return verdicts.preemptive(queue, tasks);
  }

  @Override
  public Status prePredicate(TaskInfo task) {
    return nodeFunctions.prePredicate(task);
  }

  @Override
  public Status predicate(TaskInfo task, NodeInfo node) {
    return nodeFunctions.predicate(task, node);
  }

  @Override
  public double[] scoreNodes(TaskInfo task, List<NodeInfo> candidates) {
    return nodeFunctions.scoreNodes(task, candidates);
  }

  @Override
  public Object nodeLocalKey(TaskInfo task) {
    return nodeFunctions.nodeLocalKey(task);
  }

  @Override
  public double scoreNode(TaskInfo task, NodeInfo node) {
    return nodeFunctions.scoreNode(task, node);
  }

  @Override
  public int nodeChanges() {
    return nodeChanges.size();
  }

  @Override
  public int changedNode(int position) {
    return nodeChanges.at(position);
  }

  @Override
  public void countReusedAnswers(long nodes) {
    nodeFunctions.nodesReused.add(nodes);
  }

  @Override
  public List<TaskInfo> preemptable(TaskInfo preemptor, List<TaskInfo> candidates) {
    return victims.preemptable(preemptor, candidates);
  }

  @Override
  public List<TaskInfo> reclaimable(TaskInfo reclaimer, List<TaskInfo> candidates) {
    return victims.reclaimable(reclaimer, candidates);
  }

  @Override
  public boolean jobEnqueueable(JobInfo job) {
    return verdicts.jobEnqueueable(job);
  }

  @Override
  public void jobEnqueued(JobInfo job) {
    verdicts.jobEnqueued(job);
  }

  @Override
  public boolean jobReady(JobInfo job) {
    return verdicts.jobReady(job);
  }

  @Override
  public boolean jobPipelined(JobInfo job) {
    return verdicts.jobPipelined(job);
  }

  @Override
  public ValidationResult jobValid(JobInfo job) {
    return verdicts.jobValid(job);
  }

  @Override
  public boolean jobStarving(JobInfo job) {
    return verdicts.jobStarving(job);
  }

  @Override
  public List<TaskInfo> victimTasks(List<TaskInfo> tasks) {
    return victims.victimTasks(tasks);
  }

  @Override
  public boolean simulateAllocatable(CycleState state, QueueInfo queue, TaskInfo task) {
    return verdicts.simulateAllocatable(state, queue, task);
  }

  @Override
  public Status simulatePredicate(CycleState state, TaskInfo task, NodeInfo node) {
    return verdicts.simulatePredicate(state, task, node);
  }

  @Override
  public Status simulateAddTask(
      CycleState state, TaskInfo taskToSchedule, TaskInfo taskToAdd, NodeInfo node) {
    return verdicts.simulateAddTask(state, taskToSchedule, taskToAdd, node);
  }

  @Override
  public Status simulateRemoveTask(
      CycleState state, TaskInfo taskToSchedule, TaskInfo taskToRemove, NodeInfo node) {
    return verdicts.simulateRemoveTask(state, taskToSchedule, taskToRemove, node);
  }

  // ================================================================= operations (the ledger)

  @Override
  public Statement newStatement() {
    return new StatementImpl(ledger);
  }

  /**
   * Allocates at once (no statement); when the job is then ready, every allocated task of it is
   * bound.
   */
  @Override
  public Status allocate(TaskInfo task, NodeInfo node) {
    TaskState t = Ledger.task(task);
    Status s = ledger.allocate(t, Ledger.node(node));
    if (!s.isSuccess()) {
      return s;
    }
    JobState job = jobMap().get(t.jobId());
    if (job != null && jobReady(job)) {
      ledger.bindAllocated(job);
    }
    return Status.OK;
  }

  @Override
  public void evict(TaskInfo task, String reason) {
    TaskState t = Ledger.task(task);
    ledger.evict(t);
    ledger.commitEvict(t, reason);
  }

  @Override
  public void setJobPhase(JobInfo job, PodGroupPhase phase) {
    Ledger.job(job).phase = phase;
  }

  @Override
  public void unpipeline(TaskInfo task) {
    TaskState t = Ledger.task(task);
    if (t.status == TaskStatus.PIPELINED) {
      ledger.undoPlacement(t);
    }
  }

  @Override
  public void recordEvictionFor(TaskInfo victim, TaskInfo evictor) {
    ledger.recordEvictionFor(victim, evictor, victims.decided(evictor, victim));
  }

  // ================================================================= fit errors

  @Override
  public void recordFitError(TaskInfo task, String nodeName, Status status) {
    fitErrors.record(task, nodeName, status);
  }

  @Override
  public void recordTaskError(TaskInfo task, Status status) {
    fitErrors.recordTaskError(task, status, nodes());
  }

  @Override
  public void recordTaskMessage(TaskInfo task, String message) {
    fitErrors.recordMessage(task, message);
  }

  @Override
  public boolean hasFitErrors(TaskInfo task) {
    return fitErrors.has(task);
  }

  @Override
  public boolean unresolvableOn(TaskInfo task, String nodeName) {
    return fitErrors.unresolvableOn(task, nodeName);
  }
}
