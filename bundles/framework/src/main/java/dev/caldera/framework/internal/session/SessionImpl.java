package dev.caldera.framework.internal.session;

import dev.caldera.api.ClusterInfo;
import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.action.ActionSession;
import dev.caldera.api.action.Statement;
import dev.caldera.api.extension.AllocatableFn;
import dev.caldera.api.extension.BatchNodeOrderFn;
import dev.caldera.api.extension.CycleState;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.JobEnqueueableFn;
import dev.caldera.api.extension.JobEnqueuedFn;
import dev.caldera.api.extension.JobOrderFn;
import dev.caldera.api.extension.JobPipelinedFn;
import dev.caldera.api.extension.JobReadyFn;
import dev.caldera.api.extension.JobStarvingFn;
import dev.caldera.api.extension.JobValidFn;
import dev.caldera.api.extension.NodeLocality;
import dev.caldera.api.extension.NodeOrderFn;
import dev.caldera.api.extension.OverusedFn;
import dev.caldera.api.extension.PrePredicateFn;
import dev.caldera.api.extension.PredicateFn;
import dev.caldera.api.extension.PreemptableFn;
import dev.caldera.api.extension.PreemptiveFn;
import dev.caldera.api.extension.QueueOrderFn;
import dev.caldera.api.extension.ReclaimableFn;
import dev.caldera.api.extension.SimulateAddTaskFn;
import dev.caldera.api.extension.SimulateAllocatableFn;
import dev.caldera.api.extension.SimulatePredicateFn;
import dev.caldera.api.extension.SimulateRemoveTaskFn;
import dev.caldera.api.extension.Status;
import dev.caldera.api.extension.TaskOrderFn;
import dev.caldera.api.extension.ValidationResult;
import dev.caldera.api.extension.VictimQueueOrderFn;
import dev.caldera.api.extension.VictimTasksFn;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.Blocker;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.Namespace;
import dev.caldera.api.model.PodCondition;
import dev.caldera.api.placement.SessionTopology;
import dev.caldera.api.resource.Resource;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.framework.conf.SchedulerConf;
import dev.caldera.support.placement.TopologyKeeper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.IntStream;

/**
 * One scheduling session: the snapshot's tasks, jobs, nodes and queues, the functions plugins
 * registered and their dispatch (ordering, predicates, scoring, votes, victim selection), and the
 * fit errors. Extension points combine as the package documentation of {@code
 * dev.caldera.framework} says. How decisions change the session and become binds and evictions is
 * the {@link Ledger}'s.
 */
public final class SessionImpl implements ActionSession {

  /** From this many candidate nodes on, node-order functions run in parallel (they may). */
  private static final int PARALLEL_SCORING_THRESHOLD = 256;

  private final String uid;
  private final Instant now;
  private final SchedulerConf conf;
  private final ClusterInfo clusterInfo;
  private final List<JobInfo> jobs;
  private final Map<String, JobState> jobMap;
  private final List<NodeInfo> nodes;
  private final Map<String, NodeState> nodeMap;
  private final NodeChangeLog nodeChanges;
  private final List<QueueInfo> queues;
  private final Map<String, QueueState> queueMap;
  private final Resource totalResource;
  private final Registrations registrations = new Registrations();
  private final Ledger ledger;
  private final Map<String, CycleState> cycleStates = new ConcurrentHashMap<>();

  // Decisions and diagnostics.
  final Map<String, Map<String, Status>> fitErrors = new HashMap<>();
  final Map<String, Status> taskErrors = new HashMap<>();
  final Map<String, String> taskMessages = new HashMap<>();
  final LongAdder tasksConsidered = new LongAdder();
  final LongAdder nodesFiltered = new LongAdder();
  final LongAdder nodesScored = new LongAdder();

  /** Per-node answers allocate reused instead of asking the plugins again (task × node). */
  final LongAdder nodesReused = new LongAdder();

  // Why jobs do not run: the last blocker reported per job and per queue, and who is deciding (the
  // action running and the plugin whose function is being called), to name them in a blocker.
  final Map<String, Blocker> blockers = new ConcurrentHashMap<>();
  final Map<String, Blocker> queueBlockers = new ConcurrentHashMap<>();
  final Map<String, List<Blocker.Figure>> queueQuotas = new ConcurrentHashMap<>();
  final Map<String, List<dev.caldera.api.info.CardUse>> nodeCards = new ConcurrentHashMap<>();
  private int blockerReports;
  // Pod groups left out because their queue does not exist.
  List<dev.caldera.api.model.PodGroup> orphans = List.of();

  /** The pods of each pod group in {@link #orphans}, by pod group key. */
  Map<String, List<dev.caldera.api.model.Pod>> orphanPods = Map.of();

  /**
   * Pending pods whose group annotation names a pod group that does not exist, by the key it names
   * ({@code namespace/name}).
   */
  Map<String, List<dev.caldera.api.model.Pod>> podsWithoutGroup = Map.of();

  private String currentAction = "";
  private String currentPlugin = "";

  // Combined extension points, fixed once every plugin has opened.
  private List<List<JobOrderFn>> jobOrder;
  private List<List<QueueOrderFn>> queueOrder;
  private List<List<TaskOrderFn>> taskOrder;
  private List<List<VictimQueueOrderFn>> victimQueueOrder;
  private PredicateFn[] predicates;
  private List<PrePredicateFn> prePredicates;
  // The plugin of each function above and of the simulation steps, to name it in a failure.
  private String[] predicatePlugins;
  private String[] prePredicatePlugins;
  private String[] simulatePredicatePlugins;
  private String[] simulateAddTaskPlugins;
  private String[] simulateRemoveTaskPlugins;
  private NodeOrderFn[] nodeOrders;
  private List<BatchNodeOrderFn> batchNodeOrders;
  // The node localities the per-node functions declared, one array per point in the order above;
  // null when some enabled function of the three points declared none (no reuse at all).
  private NodeLocality[] nodeLocalities;
  // Time per plugin in the per-node functions, the ones a session calls most (task x node): one
  // call in SAMPLE_EVERY is timed (timing each call cost 70% more session time on caldera bench
  // small) and counts for SAMPLE_EVERY. The tick is shared by the scoring threads without
  // synchronisation: a lost increment only shifts which call is sampled.
  static final int SAMPLE_EVERY = 64;
  final FunctionTimes functionTimes = new FunctionTimes();
  private int tick;
  private LongAdder[] predicateClocks;
  private LongAdder[] prePredicateClocks;
  private LongAdder[] nodeOrderClocks;
  private LongAdder[] batchNodeOrderClocks;
  private List<List<PreemptableFn>> preemptable;
  private List<List<ReclaimableFn>> reclaimable;
  private String[] preemptablePlugins;
  private String[] reclaimablePlugins;
  private final EvictionDeciders evictionDeciders = new EvictionDeciders();
  private List<PreemptiveFn> preemptive;
  private List<OverusedFn> overused;
  private List<AllocatableFn> allocatable;
  private List<List<JobEnqueueableFn>> jobEnqueueable;
  private String[] jobEnqueueablePlugins;
  private String[] allocatablePlugins;
  private String[] overusedPlugins;
  private String[] jobValidPlugins;
  private List<JobEnqueuedFn> jobEnqueued;
  private List<JobReadyFn> jobReady;
  private List<List<JobPipelinedFn>> jobPipelined;
  private List<JobValidFn> jobValid;
  private List<List<JobStarvingFn>> jobStarving;
  private List<List<VictimTasksFn>> victimTasks;
  private List<SimulateAllocatableFn> simulateAllocatable;
  private List<SimulatePredicateFn> simulatePredicate;
  private List<SimulateAddTaskFn> simulateAddTask;
  private List<SimulateRemoveTaskFn> simulateRemoveTask;
  private List<EventHandler> eventHandlers;
  private final TopologyKeeper topology;

  SessionImpl(
      String uid,
      Instant now,
      SchedulerConf conf,
      ClusterInfo clusterInfo,
      List<JobState> jobs,
      List<NodeState> nodes,
      NodeChangeLog nodeChanges,
      List<QueueState> queues) {
    this.nodeChanges = nodeChanges;
    this.uid = uid;
    this.now = now;
    this.conf = conf;
    this.clusterInfo = clusterInfo;
    this.jobs = List.copyOf(jobs);
    this.jobMap = new HashMap<>();
    jobs.forEach(j -> jobMap.put(j.uid(), j));
    this.nodes = List.copyOf(nodes);
    this.nodeMap = new HashMap<>();
    nodes.forEach(n -> nodeMap.put(n.name(), n));
    this.queues = List.copyOf(queues);
    this.queueMap = new HashMap<>();
    queues.forEach(q -> queueMap.put(q.name(), q));
    this.totalResource = Resource.empty();
    nodes.forEach(n -> totalResource.add(n.allocatable()));
    this.ledger = new Ledger(jobMap, nodeMap);
    Map<String, Map<String, String>> namespaceLabels = new HashMap<>();
    for (Namespace ns : clusterInfo.namespaces()) {
      namespaceLabels.put(ns.metadata().name(), ns.metadata().labels());
    }
    this.topology = new TopologyKeeper(this.nodes, namespaceLabels);
    nodes.forEach(n -> n.topology(topology));
  }

  private EvictionGuard evictionGuard;
  private Map<String, TaskState> tasksByKey;

  /** Sets the eviction budgets, backoff and holds this session keeps to. */
  void evictionGuard(EvictionGuard guard) {
    this.evictionGuard = guard;
  }

  EvictionGuard evictionGuard() {
    return evictionGuard;
  }

  /** The task with this namespace/name, or null. */
  synchronized TaskState taskByKey(String key) {
    if (tasksByKey == null) {
      tasksByKey = new HashMap<>();
      for (JobInfo j : jobs) {
        for (TaskState t : Ledger.job(j).taskStates()) {
          tasksByKey.putIfAbsent(t.key(), t);
        }
      }
    }
    return tasksByKey.get(key);
  }

  /** Where this session's decisions are applied and recorded. */
  Ledger ledger() {
    return ledger;
  }

  Registrations registrations() {
    return registrations;
  }

  /** Fixes the per-tier function lists once every plugin has registered. */
  void freeze() {
    var t = conf.tiers();
    jobOrder = registrations.tiers(ExtensionPoint.JOB_ORDER, t);
    queueOrder = registrations.tiers(ExtensionPoint.QUEUE_ORDER, t);
    taskOrder = registrations.tiers(ExtensionPoint.TASK_ORDER, t);
    victimQueueOrder = registrations.tiers(ExtensionPoint.VICTIM_QUEUE_ORDER, t);
    predicates = flat(registrations.tiers(ExtensionPoint.PREDICATE, t)).toArray(PredicateFn[]::new);
    prePredicates = flat(registrations.tiers(ExtensionPoint.PRE_PREDICATE, t));
    predicatePlugins = registrations.pluginNames(ExtensionPoint.PREDICATE, t);
    prePredicatePlugins = registrations.pluginNames(ExtensionPoint.PRE_PREDICATE, t);
    simulatePredicatePlugins = registrations.pluginNames(ExtensionPoint.SIMULATE_PREDICATE, t);
    simulateAddTaskPlugins = registrations.pluginNames(ExtensionPoint.SIMULATE_ADD_TASK, t);
    simulateRemoveTaskPlugins = registrations.pluginNames(ExtensionPoint.SIMULATE_REMOVE_TASK, t);
    nodeOrders =
        flat(registrations.tiers(ExtensionPoint.NODE_ORDER, t)).toArray(NodeOrderFn[]::new);
    batchNodeOrders = flat(registrations.tiers(ExtensionPoint.BATCH_NODE_ORDER, t));
    nodeLocalities =
        allDeclared(
            registrations.localities(ExtensionPoint.PREDICATE, t),
            registrations.localities(ExtensionPoint.NODE_ORDER, t),
            registrations.localities(ExtensionPoint.BATCH_NODE_ORDER, t));
    predicateClocks = functionTimes.clocks(predicatePlugins, "predicate");
    prePredicateClocks = functionTimes.clocks(prePredicatePlugins, "prePredicate");
    nodeOrderClocks =
        functionTimes.clocks(registrations.pluginNames(ExtensionPoint.NODE_ORDER, t), "nodeOrder");
    batchNodeOrderClocks =
        functionTimes.clocks(
            registrations.pluginNames(ExtensionPoint.BATCH_NODE_ORDER, t), "batchNodeOrder");
    preemptable = registrations.tiers(ExtensionPoint.PREEMPTABLE, t);
    reclaimable = registrations.tiers(ExtensionPoint.RECLAIMABLE, t);
    preemptablePlugins = registrations.pluginNames(ExtensionPoint.PREEMPTABLE, t);
    reclaimablePlugins = registrations.pluginNames(ExtensionPoint.RECLAIMABLE, t);
    preemptive = flat(registrations.tiers(ExtensionPoint.PREEMPTIVE, t));
    overused = flat(registrations.tiers(ExtensionPoint.OVERUSED, t));
    allocatable = flat(registrations.tiers(ExtensionPoint.ALLOCATABLE, t));
    jobEnqueueable = registrations.tiers(ExtensionPoint.JOB_ENQUEUEABLE, t);
    jobEnqueueablePlugins = registrations.pluginNames(ExtensionPoint.JOB_ENQUEUEABLE, t);
    allocatablePlugins = registrations.pluginNames(ExtensionPoint.ALLOCATABLE, t);
    overusedPlugins = registrations.pluginNames(ExtensionPoint.OVERUSED, t);
    jobValidPlugins = registrations.pluginNames(ExtensionPoint.JOB_VALID, t);
    jobEnqueued = flat(registrations.tiers(ExtensionPoint.JOB_ENQUEUED, t));
    jobReady = flat(registrations.tiers(ExtensionPoint.JOB_READY, t));
    jobPipelined = registrations.tiers(ExtensionPoint.JOB_PIPELINED, t);
    jobValid = flat(registrations.tiers(ExtensionPoint.JOB_VALID, t));
    jobStarving = registrations.tiers(ExtensionPoint.JOB_STARVING, t);
    victimTasks = registrations.tiers(ExtensionPoint.VICTIM_TASKS, t);
    simulateAllocatable = flat(registrations.tiers(ExtensionPoint.SIMULATE_ALLOCATABLE, t));
    simulatePredicate = flat(registrations.tiers(ExtensionPoint.SIMULATE_PREDICATE, t));
    simulateAddTask = flat(registrations.tiers(ExtensionPoint.SIMULATE_ADD_TASK, t));
    simulateRemoveTask = flat(registrations.tiers(ExtensionPoint.SIMULATE_REMOVE_TASK, t));
    List<EventHandler> handlers = new ArrayList<>();
    for (Object h : registrations.eventHandlers()) {
      handlers.add((EventHandler) h);
    }
    eventHandlers = List.copyOf(handlers);
    ledger.eventHandlers(eventHandlers);
    ledger.preBinds(flat(registrations.tiers(ExtensionPoint.PRE_BIND, t)));
  }

  private static <T> List<T> flat(List<List<T>> tiers) {
    List<T> out = new ArrayList<>();
    tiers.forEach(out::addAll);
    return List.copyOf(out);
  }

  // ================================================================= Session

  @Override
  public String uid() {
    return uid;
  }

  @Override
  public Instant now() {
    return now;
  }

  @Override
  public List<JobInfo> jobs() {
    return jobs;
  }

  @Override
  public JobInfo job(String uid) {
    return jobMap.get(uid);
  }

  JobState jobState(String uid) {
    return jobMap.get(uid);
  }

  @Override
  public List<NodeInfo> nodes() {
    return nodes;
  }

  @Override
  public NodeInfo node(String name) {
    return nodeMap.get(name);
  }

  @Override
  public List<QueueInfo> queues() {
    return queues;
  }

  @Override
  public QueueInfo queue(String name) {
    return queueMap.get(name);
  }

  @Override
  public ResourceView totalResource() {
    return totalResource.view();
  }

  @Override
  public ClusterInfo cluster() {
    return clusterInfo;
  }

  @Override
  public SessionTopology topology() {
    return topology;
  }

  @Override
  public CycleState cycleState(TaskInfo task) {
    if (task instanceof TaskState state) {
      return state.cycleState();
    }
    return cycleStates.computeIfAbsent(task.uid(), k -> new CycleStateImpl());
  }

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
    List<TaskInfo> sorted = new ArrayList<>(victims);
    JobInfo evictorJob = jobMap.get(evictor.jobId());
    sorted.sort((l, r) -> victimCompare(l, r, evictorJob));
    return sorted;
  }

  /** Negative when {@code l} is evicted before {@code r} ({@code BuildVictimsPriorityQueue}). */
  private int victimCompare(TaskInfo l, TaskInfo r, JobInfo evictorJob) {
    if (l.jobId().equals(r.jobId())) {
      return compareTasks(r, l);
    }
    JobInfo lJob = jobMap.get(l.jobId());
    JobInfo rJob = jobMap.get(r.jobId());
    if (lJob == null || rJob == null) {
      if (lJob == null && rJob == null) {
        return compareTasks(r, l);
      }
      return lJob == null ? -1 : 1;
    }
    if (evictorJob == null || lJob.queue().equals(rJob.queue())) {
      int c = compareJobsByPlugins(lJob, rJob);
      if (c > 0) {
        return -1;
      }
      if (c < 0) {
        return 1;
      }
      return compareTasks(r, l);
    }
    QueueInfo lq = queueMap.get(lJob.queue());
    QueueInfo rq = queueMap.get(rJob.queue());
    QueueInfo eq = queueMap.get(evictorJob.queue());
    for (List<VictimQueueOrderFn> tier : victimQueueOrder) {
      for (VictimQueueOrderFn fn : tier) {
        int c = fn.compare(lq, rq, eq);
        if (c != 0) {
          return c;
        }
      }
    }
    return compareQueues(rq, lq);
  }

  // ================================================================= ActionSession: ordering

  @Override
  public boolean actionConfigured(String name) {
    return conf.actions().contains(name);
  }

  @Override
  public Map<String, Object> actionArguments(String action) {
    return conf.configurations().getOrDefault(action, Map.of());
  }

  @Override
  public int compareJobs(JobInfo l, JobInfo r) {
    int c = compareJobsByPlugins(l, r);
    if (c != 0) {
      return c;
    }
    c = l.creationTimestamp().compareTo(r.creationTimestamp());
    return c != 0 ? c : l.uid().compareTo(r.uid());
  }

  @Override
  public int compareJobsByPlugins(JobInfo l, JobInfo r) {
    for (List<JobOrderFn> tier : jobOrder) {
      for (JobOrderFn fn : tier) {
        int c = fn.compare(l, r);
        if (c != 0) {
          return c;
        }
      }
    }
    return 0;
  }

  @Override
  public int compareQueues(QueueInfo l, QueueInfo r) {
    for (List<QueueOrderFn> tier : queueOrder) {
      for (QueueOrderFn fn : tier) {
        int c = fn.compare(l, r);
        if (c != 0) {
          return c;
        }
      }
    }
    int c = l.creationTimestamp().compareTo(r.creationTimestamp());
    return c != 0 ? c : l.name().compareTo(r.name());
  }

  @Override
  public int compareTasks(TaskInfo l, TaskInfo r) {
    for (List<TaskOrderFn> tier : taskOrder) {
      for (TaskOrderFn fn : tier) {
        int c = fn.compare(l, r);
        if (c != 0) {
          return c;
        }
      }
    }
    int li = l instanceof TaskState ls ? ls.podIndex() : TaskState.podIndex(l.name());
    int ri = r instanceof TaskState rs ? rs.podIndex() : TaskState.podIndex(r.name());
    if (li >= 0 && ri >= 0 && li != ri) {
      return Integer.compare(li, ri);
    }
    int c = l.creationTimestamp().compareTo(r.creationTimestamp());
    return c != 0 ? c : l.uid().compareTo(r.uid());
  }

  // ================================================================= ActionSession: decisions

  @Override
  public boolean overused(QueueInfo queue) {
    for (int i = 0; i < overused.size(); i++) {
      currentPlugin = overusedPlugins[i];
      int reports = blockerReports;
      boolean over = overused.get(i).test(queue);
      currentPlugin = "";
      if (over) {
        if (reports == blockerReports) {
          queueBlockers.put(
              queue.name(),
              new Blocker(
                  Blocker.Stage.QUEUE_DESERVED,
                  currentAction,
                  overusedPlugins[i],
                  "queue " + queue.name() + " is overused (plugin " + overusedPlugins[i] + ")",
                  List.of(),
                  Map.of()));
        }
        return true;
      }
    }
    return false;
  }

  @Override
  public boolean allocatable(QueueInfo queue, TaskInfo task) {
    for (int i = 0; i < allocatable.size(); i++) {
      currentPlugin = allocatablePlugins[i];
      int reports = blockerReports;
      boolean ok = allocatable.get(i).test(queue, task);
      currentPlugin = "";
      if (!ok) {
        if (reports == blockerReports) {
          JobInfo job = jobMap.get(task.jobId());
          if (job != null) {
            reportBlocker(
                job,
                Blocker.of(
                    Blocker.Stage.QUEUE_CAPABILITY,
                    "plugin "
                        + allocatablePlugins[i]
                        + " refused task "
                        + task.name()
                        + " in queue "
                        + queue.name()));
          }
        }
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean preemptive(QueueInfo queue, List<TaskInfo> tasks) {
    for (PreemptiveFn fn : preemptive) {
      if (!fn.test(queue, tasks)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public Status prePredicate(TaskInfo task) {
    tasksConsidered.increment();
    boolean timed = sampled();
    long t = timed ? System.nanoTime() : 0;
    for (int i = 0; i < prePredicates.size(); i++) {
      Status s = prePredicates.get(i).check(task);
      if (timed) {
        t = lap(prePredicateClocks[i], t);
      }
      if (s != null && !s.isSuccess()) {
        return s.withPlugin(prePredicatePlugins[i]);
      }
    }
    return Status.OK;
  }

  @Override
  public Status predicate(TaskInfo task, NodeInfo node) {
    nodesFiltered.increment();
    boolean timed = sampled();
    long t = timed ? System.nanoTime() : 0;
    for (int i = 0; i < predicates.length; i++) {
      Status s = predicates[i].check(task, node);
      if (timed) {
        t = lap(predicateClocks[i], t);
      }
      if (s != null && !s.isSuccess()) {
        return s.withPlugin(predicatePlugins[i]);
      }
    }
    if (evictionGuard != null) {
      Status held = evictionGuard.holdCheck(task, node);
      if (held != null) {
        return held;
      }
    }
    return Status.OK;
  }

  @Override
  public double[] scoreNodes(TaskInfo task, List<NodeInfo> candidates) {
    int n = candidates.size();
    nodesScored.add(n);
    double[] scores = new double[n];
    if (nodeOrders.length > 0) {
      if (n >= PARALLEL_SCORING_THRESHOLD) {
        IntStream.range(0, n)
            .parallel()
            .forEach(i -> scores[i] = nodeOrderScore(task, candidates.get(i)));
      } else {
        for (int i = 0; i < n; i++) {
          scores[i] = nodeOrderScore(task, candidates.get(i));
        }
      }
    }
    if (!batchNodeOrders.isEmpty()) {
      double[] batch = new double[n];
      boolean timed = sampled();
      long t = timed ? System.nanoTime() : 0;
      for (int i = 0; i < batchNodeOrders.size(); i++) {
        Status s = batchNodeOrders.get(i).score(task, candidates, batch);
        if (timed) {
          t = lap(batchNodeOrderClocks[i], t);
        }
        if (s != null && !s.isSuccess()) {
          // Volcano drops every batch score of the task when one batch scorer fails.
          return scores;
        }
      }
      for (int i = 0; i < n; i++) {
        scores[i] += batch[i];
      }
    }
    return scores;
  }

  @Override
  public Object nodeLocalKey(TaskInfo task) {
    if (nodeLocalities == null) {
      return null;
    }
    Object[] keys = new Object[nodeLocalities.length];
    for (int i = 0; i < keys.length; i++) {
      Object key = nodeLocalities[i].taskKey(task);
      if (key == null) {
        return null;
      }
      keys[i] = key;
    }
    return List.of(keys);
  }

  @Override
  public double scoreNode(TaskInfo task, NodeInfo node) {
    nodesScored.increment();
    double score = nodeOrders.length > 0 ? nodeOrderScore(task, node) : 0;
    if (!batchNodeOrders.isEmpty()) {
      double[] batch = new double[1];
      List<NodeInfo> alone = List.of(node);
      for (BatchNodeOrderFn fn : batchNodeOrders) {
        Status s = fn.score(task, alone, batch);
        if (s != null && !s.isSuccess()) {
          return Double.NaN;
        }
      }
      score += batch[0];
    }
    return score;
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
    nodesReused.add(nodes);
  }

  private static NodeLocality[] allDeclared(NodeLocality[]... points) {
    List<NodeLocality> all = new ArrayList<>();
    for (NodeLocality[] point : points) {
      for (NodeLocality locality : point) {
        if (locality == null) {
          return null;
        }
        all.add(locality);
      }
    }
    return all.toArray(NodeLocality[]::new);
  }

  private double nodeOrderScore(TaskInfo task, NodeInfo node) {
    double s = 0;
    boolean timed = sampled();
    long t = timed ? System.nanoTime() : 0;
    for (int i = 0; i < nodeOrders.length; i++) {
      s += nodeOrders[i].score(task, node);
      if (timed) {
        t = lap(nodeOrderClocks[i], t);
      }
    }
    return s;
  }

  /** Whether this call of a per-node function is one of the timed ones. */
  private boolean sampled() {
    return ++tick % SAMPLE_EVERY == 0;
  }

  /**
   * Adds the time since {@code since}, for {@link #SAMPLE_EVERY} calls, to {@code clock}; returns
   * now (the next function's start).
   */
  private static long lap(LongAdder clock, long since) {
    long now = System.nanoTime();
    clock.add((now - since) * SAMPLE_EVERY);
    return now;
  }

  @Override
  public List<TaskInfo> preemptable(TaskInfo preemptor, List<TaskInfo> candidates) {
    List<List<VictimSelector>> tiers = new ArrayList<>();
    for (List<PreemptableFn> tier : preemptable) {
      List<VictimSelector> t = new ArrayList<>();
      tier.forEach(fn -> t.add(new VictimSelector(fn, fn::select)));
      tiers.add(t);
    }
    List<TaskInfo> victims = selectVictims(tiers, preemptablePlugins, preemptor, candidates);
    return evictionGuard == null ? victims : evictionGuard.filter(preemptor, victims, false);
  }

  @Override
  public List<TaskInfo> reclaimable(TaskInfo reclaimer, List<TaskInfo> candidates) {
    List<List<VictimSelector>> tiers = new ArrayList<>();
    for (List<ReclaimableFn> tier : reclaimable) {
      List<VictimSelector> t = new ArrayList<>();
      tier.forEach(fn -> t.add(new VictimSelector(fn, fn::select)));
      tiers.add(t);
    }
    List<TaskInfo> victims = selectVictims(tiers, reclaimablePlugins, reclaimer, candidates);
    return evictionGuard == null ? victims : evictionGuard.filter(reclaimer, victims, true);
  }

  private interface Selection {
    Victims select(TaskInfo evictor, List<TaskInfo> candidates);
  }

  /** A victim function and how to call it. */
  private record VictimSelector(Object fn, Selection selection) {}

  /**
   * Volcano's victim selection (§4.3): intersect inside a tier; the first non-empty tier decides.
   * The deciding tier's permitting functions are noted for the eviction's rule.
   *
   * @param plugins the plugin of each function, flattened over the tiers
   */
  private List<TaskInfo> selectVictims(
      List<List<VictimSelector>> tiers,
      String[] plugins,
      TaskInfo evictor,
      List<TaskInfo> candidates) {
    int index = 0;
    for (List<VictimSelector> tier : tiers) {
      List<TaskInfo> victims = null;
      List<EvictionDeciders.Decider> deciders = new ArrayList<>(tier.size());
      int first = index;
      index += tier.size();
      for (int i = 0; i < tier.size(); i++) {
        VictimSelector fn = tier.get(i);
        Victims answer = fn.selection().select(evictor, candidates);
        if (answer == null || answer.vote() == Vote.ABSTAIN) {
          continue;
        }
        if (answer.tasks().isEmpty() || answer.vote() == Vote.REJECT) {
          victims = null;
          break;
        }
        deciders.add(
            new EvictionDeciders.Decider(
                first + i < plugins.length ? plugins[first + i] : "", fn.fn()));
        if (victims == null) {
          victims = new ArrayList<>(answer.tasks());
        } else {
          Set<String> keep = new HashSet<>();
          answer.tasks().forEach(t -> keep.add(t.uid()));
          victims.removeIf(v -> !keep.contains(v.uid()));
          if (victims.isEmpty()) {
            victims = null;
          }
        }
      }
      if (victims != null) {
        evictionDeciders.selected(evictor, victims, deciders);
        return victims;
      }
    }
    return List.of();
  }

  @Override
  public boolean jobEnqueueable(JobInfo job) {
    // Volcano's vote rule (§4.2), naming the plugin that rejects.
    int i = 0;
    for (List<JobEnqueueableFn> tier : jobEnqueueable) {
      boolean permitted = false;
      for (JobEnqueueableFn fn : tier) {
        String plugin = jobEnqueueablePlugins[i++];
        currentPlugin = plugin;
        int reports = blockerReports;
        Vote v = fn.vote(job);
        currentPlugin = "";
        if (v == Vote.REJECT) {
          if (reports == blockerReports) {
            blockers.put(
                job.uid(),
                new Blocker(
                    Blocker.Stage.ENQUEUE,
                    currentAction,
                    plugin,
                    "the enqueue vote of plugin " + plugin + " rejected it",
                    List.of(),
                    Map.of()));
          }
          return false;
        }
        if (v == Vote.PERMIT) {
          permitted = true;
        }
      }
      if (permitted) {
        return true;
      }
    }
    return true;
  }

  /** The action whose {@code execute} runs now, named in the blockers reported under it. */
  void startAction(String name) {
    currentAction = name;
  }

  @Override
  public void reportBlocker(JobInfo job, Blocker blocker) {
    if (job == null || blocker == null) {
      return;
    }
    blockerReports++;
    blockers.put(job.uid(), blocker.from(currentAction, currentPlugin));
  }

  @Override
  public void reportQueueBlocker(QueueInfo queue, Blocker blocker) {
    if (queue == null || blocker == null) {
      return;
    }
    blockerReports++;
    queueBlockers.put(queue.name(), blocker.from(currentAction, currentPlugin));
  }

  @Override
  public void reportQueueQuota(QueueInfo queue, List<Blocker.Figure> figures) {
    if (queue != null && figures != null) {
      queueQuotas.put(queue.name(), List.copyOf(figures));
    }
  }

  @Override
  public void reportNodeCards(NodeInfo node, List<dev.caldera.api.info.CardUse> cards) {
    if (node != null && cards != null) {
      nodeCards.put(node.name(), List.copyOf(cards));
    }
  }

  @Override
  public void jobEnqueued(JobInfo job) {
    jobEnqueued.forEach(fn -> fn.enqueued(job));
  }

  @Override
  public boolean jobReady(JobInfo job) {
    for (JobReadyFn fn : jobReady) {
      if (!fn.test(job)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean jobPipelined(JobInfo job) {
    return vote(jobPipelined, fn -> fn.vote(job));
  }

  /** Volcano's vote rule (§4.2). */
  private static <T> boolean vote(List<List<T>> tiers, java.util.function.Function<T, Vote> call) {
    for (List<T> tier : tiers) {
      boolean permitted = false;
      for (T fn : tier) {
        Vote v = call.apply(fn);
        if (v == Vote.REJECT) {
          return false;
        }
        if (v == Vote.PERMIT) {
          permitted = true;
        }
      }
      if (permitted) {
        return true;
      }
    }
    return true;
  }

  @Override
  public ValidationResult jobValid(JobInfo job) {
    for (int i = 0; i < jobValid.size(); i++) {
      ValidationResult r = jobValid.get(i).validate(job);
      if (r != null && !r.pass()) {
        blockers.put(
            job.uid(),
            new Blocker(
                Blocker.Stage.INVALID,
                currentAction,
                jobValidPlugins[i],
                r.message() == null || r.message().isEmpty() ? r.reason() : r.message(),
                List.of(),
                Map.of()));
        return r;
      }
    }
    return null;
  }

  @Override
  public boolean jobStarving(JobInfo job) {
    for (List<JobStarvingFn> tier : jobStarving) {
      if (tier.isEmpty()) {
        continue;
      }
      for (JobStarvingFn fn : tier) {
        if (!fn.test(job)) {
          return false;
        }
      }
      return true;
    }
    return false;
  }

  @Override
  public List<TaskInfo> victimTasks(List<TaskInfo> tasks) {
    for (List<VictimTasksFn> tier : victimTasks) {
      Set<TaskInfo> union = new LinkedHashSet<>();
      for (VictimTasksFn fn : tier) {
        List<TaskInfo> v = fn.select(tasks);
        if (v != null) {
          union.addAll(v);
        }
      }
      if (!union.isEmpty()) {
        return new ArrayList<>(union);
      }
    }
    return List.of();
  }

  @Override
  public boolean simulateAllocatable(CycleState state, QueueInfo queue, TaskInfo task) {
    for (SimulateAllocatableFn fn : simulateAllocatable) {
      if (!fn.test(state, queue, task)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public Status simulatePredicate(CycleState state, TaskInfo task, NodeInfo node) {
    for (int i = 0; i < simulatePredicate.size(); i++) {
      Status s = simulatePredicate.get(i).check(state, task, node);
      if (s != null && !s.isSuccess()) {
        return s.withPlugin(simulatePredicatePlugins[i]);
      }
    }
    return Status.OK;
  }

  @Override
  public Status simulateAddTask(
      CycleState state, TaskInfo taskToSchedule, TaskInfo taskToAdd, NodeInfo node) {
    for (int i = 0; i < simulateAddTask.size(); i++) {
      Status s = simulateAddTask.get(i).add(state, taskToSchedule, taskToAdd, node);
      if (s != null && !s.isSuccess()) {
        return s.withPlugin(simulateAddTaskPlugins[i]);
      }
    }
    return Status.OK;
  }

  @Override
  public Status simulateRemoveTask(
      CycleState state, TaskInfo taskToSchedule, TaskInfo taskToRemove, NodeInfo node) {
    for (int i = 0; i < simulateRemoveTask.size(); i++) {
      Status s = simulateRemoveTask.get(i).remove(state, taskToSchedule, taskToRemove, node);
      if (s != null && !s.isSuccess()) {
        return s.withPlugin(simulateRemoveTaskPlugins[i]);
      }
    }
    return Status.OK;
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
    JobState job = jobMap.get(t.jobId());
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
  public void recordFitError(TaskInfo task, String nodeName, Status status) {
    synchronized (fitErrors) {
      fitErrors.computeIfAbsent(task.uid(), k -> new LinkedHashMap<>()).put(nodeName, status);
    }
  }

  @Override
  public void recordTaskError(TaskInfo task, Status status) {
    synchronized (fitErrors) {
      Map<String, Status> perNode =
          fitErrors.computeIfAbsent(task.uid(), k -> new LinkedHashMap<>());
      for (NodeInfo n : nodes) {
        perNode.put(n.name(), status);
      }
      taskErrors.put(task.uid(), status);
    }
  }

  @Override
  public void recordTaskMessage(TaskInfo task, String message) {
    synchronized (fitErrors) {
      taskMessages.put(task.uid(), message);
    }
  }

  /** The explicit fit-error message of a task, or null. */
  String taskMessage(TaskInfo task) {
    synchronized (fitErrors) {
      return taskMessages.get(task.uid());
    }
  }

  @Override
  public boolean hasFitErrors(TaskInfo task) {
    synchronized (fitErrors) {
      Map<String, Status> m = fitErrors.get(task.uid());
      return (m != null && !m.isEmpty()) || taskMessages.containsKey(task.uid());
    }
  }

  @Override
  public void unpipeline(TaskInfo task) {
    TaskState t = Ledger.task(task);
    if (t.status == TaskStatus.PIPELINED) {
      ledger.undoPlacement(t);
    }
  }

  @Override
  public boolean unresolvableOn(TaskInfo task, String nodeName) {
    synchronized (fitErrors) {
      Map<String, Status> m = fitErrors.get(task.uid());
      if (m == null) {
        return false;
      }
      Status s = m.get(nodeName);
      return s != null && s.code() == Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE;
    }
  }

  @Override
  public void recordEvictionFor(TaskInfo victim, TaskInfo evictor) {
    ledger.recordEvictionFor(victim, evictor, evictionDeciders.decided(evictor, victim));
  }

  Map<String, Status> fitErrorsOf(TaskInfo task) {
    synchronized (fitErrors) {
      Map<String, Status> m = fitErrors.get(task.uid());
      return m == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(m));
    }
  }

  /**
   * Gives each node of the fit errors the reason kube-scheduler would give; called once the actions
   * ran, while the plugins are still open. Allocate checks resources before the plugins' predicates
   * (as Volcano does), but kube-scheduler runs its node filters (unschedulable, node affinity and
   * selector, taints) before resource fit. So a node reported short of a resource that a predicate
   * excludes for good (a status preemption cannot resolve) is reported with that reason: a 100m pod
   * with a node selector reads "2 Insufficient cpu, 6 node(s) didn't match Pod's node
   * affinity/selector" when 2 of its 8 nodes match and are full, whatever the other 6 hold.
   */
  void fitErrorsInKubeSchedulerOrder() {
    Map<String, TaskInfo> tasks = new HashMap<>();
    for (JobState job : jobMap.values()) {
      for (TaskState t : job.taskStates()) {
        tasks.put(t.uid(), t);
      }
    }
    synchronized (fitErrors) {
      fitErrors.forEach(
          (uid, byNode) -> {
            TaskInfo task = tasks.get(uid);
            // Only a task some node excludes for good can have full nodes that would too: a full
            // cluster without node selectors pays nothing here (allocate never ran the predicates
            // on full nodes, and they are not run now).
            if (task == null || !anyUnresolvable(byNode)) {
              return;
            }
            for (Map.Entry<String, Status> e : byNode.entrySet()) {
              NodeInfo node = nodeMap.get(e.getKey());
              if (node != null && insufficientOnly(e.getValue())) {
                Status predicates = predicate(task, node);
                if (predicates.code() == Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
                  e.setValue(predicates);
                }
              }
            }
          });
    }
  }

  private static boolean anyUnresolvable(Map<String, Status> byNode) {
    for (Status s : byNode.values()) {
      if (s.code() == Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
        return true;
      }
    }
    return false;
  }

  private static boolean insufficientOnly(Status s) {
    if (s.reasons().isEmpty() || s.code() != Status.Code.UNSCHEDULABLE) {
      return false;
    }
    for (String reason : s.reasons()) {
      if (!reason.startsWith("Insufficient ")) {
        return false;
      }
    }
    return true;
  }

  SchedulerConf conf() {
    return conf;
  }

  Map<String, QueueState> queueMap() {
    return queueMap;
  }

  Map<String, JobState> jobMap() {
    return jobMap;
  }
}
