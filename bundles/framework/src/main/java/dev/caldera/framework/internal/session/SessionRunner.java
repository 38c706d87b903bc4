package dev.caldera.framework.internal.session;

import dev.caldera.api.ClusterInfo;
import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import dev.caldera.api.action.Action;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.PriorityClass;
import dev.caldera.api.model.Queue;
import dev.caldera.api.model.Storage;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.PluginRegistry;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.conf.ConfException;
import dev.caldera.framework.conf.PluginOption;
import dev.caldera.framework.conf.SchedulerConf;
import dev.caldera.framework.conf.Tier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntFunction;

/** Opens, runs and closes one session. */
public final class SessionRunner {

  private static final String DEFAULT_QUEUE = "default";

  private final PluginRegistry registry;
  private final SchedulerConf conf;
  private final PodDigests digests;
  private final EvictionMemory evictionMemory;
  private final CarriedStates carried;
  private Consumer<SessionResult.Bind> committedBinds = b -> {};

  public SessionRunner(PluginRegistry registry, SchedulerConf conf) {
    this(registry, conf, new PodDigests());
  }

  public SessionRunner(PluginRegistry registry, SchedulerConf conf, PodDigests digests) {
    this(registry, conf, digests, new EvictionMemory());
  }

  /**
   * A runner that reads pods through {@code digests}: a loop that runs sessions one after another
   * passes the same digests to each, so a pod read by the last session is not read again; and the
   * same eviction memory, so that eviction budgets, the reclaim backoff and held capacity carry
   * from one session to the next.
   */
  public SessionRunner(
      PluginRegistry registry,
      SchedulerConf conf,
      PodDigests digests,
      EvictionMemory evictionMemory) {
    this(registry, conf, digests, evictionMemory, new CarriedStates());
  }

  /**
   * As above, and the next session takes from {@code carried} what this one opened and did not
   * change ({@link CarriedStates}): a loop passes the same to each session.
   */
  public SessionRunner(
      PluginRegistry registry,
      SchedulerConf conf,
      PodDigests digests,
      EvictionMemory evictionMemory,
      CarriedStates carried) {
    this.registry = registry;
    this.conf = conf;
    this.digests = digests;
    this.evictionMemory = evictionMemory;
    this.carried = carried;
  }

  /**
   * Hands {@code sink} each bind as the session commits it (a gang once it is ready), before the
   * session ends, so that a writer can send it while the session goes on. The binds stay in the
   * session's result, in the same order.
   */
  public SessionRunner handingOverBindsAtCommit(Consumer<SessionResult.Bind> sink) {
    this.committedBinds = sink;
    return this;
  }

  /** Runs the session on {@code snapshot}. */
  public SessionResult run(ClusterSnapshot snapshot) throws ConfException {
    List<String> missing = conf.missing(registry);
    if (!missing.isEmpty()) {
      throw new ConfException("conf", missing);
    }
    EvictionRules evictionRules = EvictionRules.of(conf);
    long start = System.nanoTime();
    List<SessionResult.Event> refused = new ArrayList<>();
    Opening opening = openWithinBounds(snapshot, refused, carried.claim());
    SessionImpl session = opening.session();
    EvictionGuard guard = new EvictionGuard(session, evictionRules, evictionMemory);
    session.evictionGuard(guard);
    session.ledger().recordEvents(refused);
    session.ledger().committedBinds(committedBinds);
    List<Plugin> plugins = openPlugins(session);
    session.freeze();
    session.startAction(QueueLifecycleStep.DRAIN);
    QueueLifecycleStep.drain(session);
    Map<String, Long> actionNanos = new LinkedHashMap<>();
    for (String name : conf.actions()) {
      Action action = registry.action(name).orElseThrow();
      long t = System.nanoTime();
      session.startAction(name);
      action.execute(session);
      actionNanos.merge(name, System.nanoTime() - t, Long::sum);
    }
    session.startAction("");
    guard.close();
    session.fitErrorsInKubeSchedulerOrder();
    WaitingLine line = WaitingLine.order(session);
    for (Plugin p : plugins) {
      long t = System.nanoTime();
      p.onSessionClose(session);
      session.functionTimes.clock(p.name(), "onSessionClose").add(System.nanoTime() - t);
    }
    SessionResult result = new SessionCloser(session, line).close(System.nanoTime() - start);
    carried.handOver(opening.opened());
    return result.withTimings(actionNanos, session.functionTimes.snapshot());
  }

  /**
   * The views a session opens with on {@code snapshot} (objects out of bounds left out, as in a
   * session), with no plugin and no action: nothing is decided on them.
   */
  public static dev.caldera.api.Session openViews(ClusterSnapshot snapshot) {
    SessionRunner runner =
        new SessionRunner(null, new SchedulerConf(List.of(), List.of(), Map.of()));
    SessionImpl session =
        runner.openWithinBounds(snapshot, new ArrayList<>(), CarriedStates.Opened.NONE).session();
    session.freeze();
    return session;
  }

  private List<Plugin> openPlugins(SessionImpl session) throws ConfException {
    List<Plugin> created = new ArrayList<>();
    List<String> names = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    List<Tier> tiers = conf.tiers();
    for (int t = 0; t < tiers.size(); t++) {
      List<PluginOption> options = tiers.get(t).plugins();
      for (int p = 0; p < options.size(); p++) {
        PluginOption option = options.get(p);
        PluginFactory factory = registry.plugin(option.name()).orElse(null);
        if (factory == null) {
          continue;
        }
        Plugin plugin;
        try {
          plugin =
              factory.create(
                  new PluginArguments(
                      option.name(), option.arguments(), conf.hierarchyEnabled(option.name())));
        } catch (PluginArgumentException e) {
          problems.add(
              "tiers[" + t + "].plugins[" + p + "] (" + option.name() + "): " + e.getMessage());
          continue;
        }
        created.add(plugin);
        names.add(option.name());
        for (String unmet : plugin.unmetRequirements(session.cluster())) {
          problems.add("tiers[" + t + "].plugins[" + p + "] (" + option.name() + "): " + unmet);
        }
      }
    }
    if (!problems.isEmpty()) {
      throw new ConfException("conf", problems);
    }
    // Every plugin is made and asked for its requirements before the first opens: a held session
    // must not have run any plugin's open (which may record events or count compilations).
    for (int i = 0; i < created.size(); i++) {
      long t = System.nanoTime();
      created.get(i).onSessionOpen(session, session.registrations().forPlugin(names.get(i)));
      session.functionTimes.clock(names.get(i), "onSessionOpen").add(System.nanoTime() - t);
    }
    return created;
  }

  /** The reason of the event on an object refused for a quantity out of bounds. */
  public static final String RESOURCE_OUT_OF_RANGE = "ResourceOutOfRange";

  /** The reason of the event on a volume or claim left out for a phase Kubernetes does not have. */
  public static final String UNKNOWN_PHASE = "UnknownPhase";

  /** The reason of the event on a claim kept pending: it names a volume another claim holds. */
  public static final String VOLUME_HELD_BY_ANOTHER_CLAIM = "VolumeHeldByAnotherClaim";

  /** The reasons of the events on objects a session leaves out or cannot use as given. */
  public static final Set<String> REFUSALS =
      Set.of(RESOURCE_OUT_OF_RANGE, UNKNOWN_PHASE, VOLUME_HELD_BY_ANOTHER_CLAIM);

  /**
   * {@code snapshot} without the objects whose quantities no session can compute with ({@link
   * ResourceBounds}) and the storage objects no session may use ({@link StorageChecks}); each
   * refused object gets a warning event naming the field. {@code podDigests} are the digests of the
   * snapshot's pods, in order; those of the refused pods are taken out of it.
   */
  private static ClusterSnapshot withinBounds(
      ClusterSnapshot snapshot,
      List<PodDigests.Digest> podDigests,
      List<SessionResult.Event> events) {
    Storage storage = StorageChecks.usable(snapshot.info().storage(), events);
    List<Node> nodes = keep(snapshot.nodes(), ResourceBounds::problem, "Node", Node::name, events);
    List<Pod> pods =
        keepAt(snapshot.pods(), i -> podDigests.get(i).boundsProblem(), "Pod", Pod::key, events);
    if (pods != snapshot.pods()) {
      podDigests.removeIf(d -> d.boundsProblem() != null);
    }
    List<PodGroup> groups =
        keep(snapshot.podGroups(), ResourceBounds::problem, "PodGroup", PodGroup::key, events);
    List<Queue> queues =
        keep(snapshot.queues(), ResourceBounds::problem, "Queue", Queue::name, events);
    if (events.isEmpty()) {
      return snapshot;
    }
    ClusterInfo info =
        storage == snapshot.info().storage()
            ? snapshot.info()
            : snapshot.info().withStorage(storage);
    return new ClusterSnapshot(nodes, pods, groups, queues, info, snapshot.now());
  }

  private static <T> List<T> keep(
      List<T> objects,
      Function<T, String> problem,
      String kind,
      Function<T, String> key,
      List<SessionResult.Event> events) {
    return keepAt(objects, i -> problem.apply(objects.get(i)), kind, key, events);
  }

  /** As {@link #keep}, with the problem of the object at each position. */
  private static <T> List<T> keepAt(
      List<T> objects,
      IntFunction<String> problemAt,
      String kind,
      Function<T, String> key,
      List<SessionResult.Event> events) {
    List<T> kept = null;
    for (int i = 0; i < objects.size(); i++) {
      T o = objects.get(i);
      String why = problemAt.apply(i);
      if (why == null) {
        if (kept != null) {
          kept.add(o);
        }
        continue;
      }
      if (kept == null) {
        kept = new ArrayList<>(objects.subList(0, i));
      }
      events.add(
          new SessionResult.Event(
              kind,
              key.apply(o),
              "Warning",
              RESOURCE_OUT_OF_RANGE,
              kind + " " + key.apply(o) + " is not scheduled: " + why));
    }
    return kept == null ? objects : kept;
  }

  /** A session just opened, and what the next session may take of it once it has closed. */
  private record Opening(SessionImpl session, CarriedStates.Opened opened) {}

  /**
   * The session on {@code snapshot} without the objects out of bounds (each a warning in {@code
   * refused}), its pods read through {@link #digests}, taking from {@code carried} what the last
   * session opened and did not change.
   */
  private Opening openWithinBounds(
      ClusterSnapshot snapshot, List<SessionResult.Event> refused, CarriedStates.Opened carried) {
    List<Pod> pods = snapshot.pods();
    PodDigests.Generation generation = digests.next(pods.size());
    List<PodDigests.Digest> podDigests = new ArrayList<>(pods.size());
    for (int i = 0; i < pods.size(); i++) {
      podDigests.add(generation.of(pods.get(i)));
    }
    generation.publish();
    return open(withinBounds(snapshot, podDigests, refused), podDigests, carried);
  }

  /** A node of the snapshot being opened ({@link CarriedSlot}). */
  private static final class NodeSlot extends CarriedSlot<NodeState> {
    private final Node node;
    private final int index;
    private final NodeChangeLog changes;

    NodeSlot(Node node, int index, NodeChangeLog changes, NodeState carried) {
      super(carried);
      this.node = node;
      this.index = index;
      this.changes = changes;
    }

    @Override
    NodeState newState() {
      return new NodeState(node, index, changes);
    }

    @Override
    int openedCount(NodeState state) {
      return state.taskCount();
    }

    @Override
    TaskState openedAt(NodeState state, int i) {
      return (TaskState) state.tasks().get(i);
    }

    @Override
    void addTask(NodeState state, TaskState task) {
      state.addTask(task);
    }

    @Override
    void reopen(NodeState state) {
      state.reopen(index, changes);
    }

    @Override
    void opened(NodeState state) {
      state.opened();
    }
  }

  /** A job being opened ({@link CarriedSlot}). */
  private static final class JobSlot extends CarriedSlot<JobState> {
    private final PodGroup podGroup;
    private final String queue;
    private final int priority;

    JobSlot(PodGroup podGroup, String queue, int priority, JobState carried) {
      super(carried);
      this.podGroup = podGroup;
      this.queue = queue;
      this.priority = priority;
    }

    String uid() {
      return building().uid();
    }

    @Override
    JobState newState() {
      return new JobState(podGroup, queue, priority);
    }

    @Override
    int openedCount(JobState state) {
      return state.addedOrder().length;
    }

    @Override
    TaskState openedAt(JobState state, int i) {
      return state.addedOrder()[i];
    }

    @Override
    void addTask(JobState state, TaskState task) {
      state.addTask(task);
    }

    @Override
    void reopen(JobState state) {
      state.reopen();
    }

    @Override
    void opened(JobState state) {
      state.opened();
    }
  }

  /**
   * Builds the session's tasks, jobs, nodes and queues from the snapshot (§2.3–2.7); {@code
   * podDigests} are the digests of the snapshot's pods, in order. A task, job or node the last
   * session opened ({@code carried}) is taken again when nothing of it changed.
   */
  private Opening open(
      ClusterSnapshot snapshot, List<PodDigests.Digest> podDigests, CarriedStates.Opened carried) {
    Map<String, Integer> priorityClasses = new HashMap<>();
    Integer globalDefault = null;
    for (PriorityClass pc : snapshot.info().priorityClasses()) {
      priorityClasses.put(pc.name(), pc.value());
      if (pc.globalDefault()) {
        globalDefault = pc.value();
      }
    }
    List<QueueState> queues = new ArrayList<>();
    Map<String, QueueState> queueByName = new HashMap<>();
    for (Queue q : snapshot.queues()) {
      QueueState qs = new QueueState(q);
      if (queueByName.putIfAbsent(q.name(), qs) == null) {
        queues.add(qs);
      }
    }
    queues.sort(Comparator.comparing(QueueState::name));

    List<NodeSlot> nodeSlots = new ArrayList<>();
    Map<String, NodeSlot> nodeByName = new HashMap<>();
    NodeChangeLog nodeChanges = new NodeChangeLog();
    for (Node n : snapshot.nodes()) {
      if (!nodeByName.containsKey(n.name())) {
        NodeState had = carried.nodes().get(n.name());
        NodeSlot slot =
            new NodeSlot(
                n,
                nodeSlots.size(),
                nodeChanges,
                had != null && had.node() == n && !had.touched() ? had : null);
        nodeSlots.add(slot);
        nodeByName.put(n.name(), slot);
      }
    }

    Map<String, JobSlot> jobByUid = new LinkedHashMap<>();
    List<PodGroup> orphans = new ArrayList<>();
    for (PodGroup pg : snapshot.podGroups()) {
      String queue = pg.queue().isEmpty() ? DEFAULT_QUEUE : pg.queue();
      if (!queueByName.containsKey(queue)) {
        orphans.add(pg);
        continue;
      }
      int priority;
      if (!pg.priorityClassName().isEmpty()
          && priorityClasses.containsKey(pg.priorityClassName())) {
        priority = priorityClasses.get(pg.priorityClassName());
      } else if (globalDefault != null) {
        priority = globalDefault;
      } else {
        priority = 0;
      }
      JobState had = carried.jobs().get(pg.key());
      boolean same =
          had != null
              && had.podGroup() == pg
              && !had.touched()
              && had.priority() == priority
              && had.queue().equals(queue);
      JobSlot slot = new JobSlot(pg, queue, priority, same ? had : null);
      // PodGroup#key() builds a new string at each call, and each new string is hashed anew.
      jobByUid.putIfAbsent(slot.uid(), slot);
    }

    Map<String, List<Pod>> orphanPods = new TreeMap<>();
    Map<String, List<Pod>> podsWithoutGroup = new TreeMap<>();
    Set<String> orphanKeys = new HashSet<>();
    orphans.forEach(pg -> orphanKeys.add(pg.key()));
    List<Pod> pods = snapshot.pods();
    PodAlignment alignment = new PodAlignment(carried.pods());
    TaskState[] tasks = new TaskState[pods.size()];
    for (int i = 0; i < pods.size(); i++) {
      Pod pod = pods.get(i);
      int at = alignment.find(pod);
      TaskState task = null;
      if (at >= 0) {
        task = carried.tasks()[at];
        carried.tasks()[at] = null; // a pod listed twice gets a second task, as a fresh open gives
      }
      if (task == null || task.touched()) {
        task = new TaskState(pod, podDigests.get(i));
      }
      tasks[i] = task;
      JobSlot job = jobByUid.get(task.jobId());
      if (job != null) {
        job.add(task);
      } else if (orphanKeys.contains(task.jobId())) {
        orphanPods.computeIfAbsent(task.jobId(), k -> new ArrayList<>()).add(pod);
      } else if (!task.jobId().isEmpty()
          && task.status == TaskStatus.PENDING
          && task.nodeName.isEmpty()
          && pod.metadata().deletionTimestamp() == null) {
        podsWithoutGroup.computeIfAbsent(task.jobId(), k -> new ArrayList<>()).add(pod);
      }
      if (!task.nodeName.isEmpty()
          && task.status != TaskStatus.SUCCEEDED
          && task.status != TaskStatus.FAILED) {
        NodeSlot node = nodeByName.get(task.nodeName);
        if (node != null) {
          node.add(task);
        }
      }
    }
    List<NodeState> nodes = new ArrayList<>(nodeSlots.size());
    Map<String, NodeState> nodeStates = new HashMap<>();
    for (NodeSlot slot : nodeSlots) {
      NodeState node = slot.state();
      nodes.add(node);
      nodeStates.put(node.name(), node);
    }
    List<JobState> jobs = new ArrayList<>(jobByUid.size());
    Map<String, JobState> jobStates = new HashMap<>();
    for (JobSlot slot : jobByUid.values()) {
      JobState job = slot.state();
      jobs.add(job);
      jobStates.put(job.uid(), job);
    }
    jobs.sort(Comparator.comparing(JobState::uid));
    orphans.sort(Comparator.comparing(PodGroup::key));
    SessionImpl session =
        new SessionImpl(
            UUID.nameUUIDFromBytes(
                    Objects.toString(snapshot.now())
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .toString(),
            snapshot.now(),
            conf,
            snapshot.info(),
            jobs,
            nodes,
            nodeChanges,
            queues);
    session.leftovers(
        new SessionState.Leftovers(List.copyOf(orphans), orphanPods, podsWithoutGroup));
    return new Opening(
        session, new CarriedStates.Opened(pods.toArray(new Pod[0]), tasks, jobStates, nodeStates));
  }

  /** The event reason on a pod group whose queue does not exist. */
  public static final String QUEUE_NOT_FOUND = "QueueNotFound";

  /** The event reason on a pending pod whose group annotation names no existing pod group. */
  public static final String POD_GROUP_NOT_FOUND = "PodGroupNotFound";

  /** The event reason on a pending pod group whose queue is not Open. */
  public static final String QUEUE_CLOSED = "QueueClosed";

  /**
   * The job's tasks that count as scheduled for its phase: running, bound, finished, and releasing
   * ones still on a node.
   */
  static int scheduled(JobState job) {
    int scheduled =
        job.taskCount(TaskStatus.RUNNING)
            + job.taskCount(TaskStatus.BOUND)
            + job.taskCount(TaskStatus.FAILED)
            + job.taskCount(TaskStatus.SUCCEEDED);
    for (TaskState t : job.taskStates()) {
      if (t.status == TaskStatus.RELEASING && !t.nodeName.isEmpty()) {
        scheduled++;
      }
    }
    return scheduled;
  }
}
