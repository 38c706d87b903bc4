package dev.caldera.testkit;

import dev.caldera.api.ClusterInfo;
import dev.caldera.api.Session;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.Namespace;
import dev.caldera.api.model.PodCondition;
import dev.caldera.api.placement.SessionTopology;
import dev.caldera.support.placement.TopologyKeeper;
import dev.caldera.support.resource.Resource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A session made of fake nodes, queues and jobs, which records the events and pod group conditions
 * plugins write. The {@code addXxx} methods create objects; the {@link Session} lookups ({@link
 * #node}, {@link #queue}, {@link #job}) return null for unknown names, as the real session does.
 * {@link #jobs()} returns every added job, whether or not its queue was added. {@link #victimOrder}
 * returns the victims unchanged.
 *
 * <p>{@link #topology()} is the API's own {@link TopologyKeeper} over these nodes: tasks placed on
 * or taken off a node of this session ({@link FakeTask#on}) and {@link #evict}/{@link #undoEvict}
 * keep it up to date, as the framework does; a plugin's own event handler is still called by the
 * test.
 */
public final class FakeSession implements Session {

  private final Map<String, FakeNode> nodes = new LinkedHashMap<>();
  private final Map<String, FakeQueue> queues = new TreeMap<>();
  private final Map<String, FakeJob> jobs = new TreeMap<>();
  private final Map<String, FakeCycleState> cycleStates = new HashMap<>();
  private final List<RecordedEvent> events = new ArrayList<>();
  private final Map<String, Map<String, PodCondition>> conditions = new TreeMap<>();
  private final Map<String, String> fitErrors = new HashMap<>();
  private ClusterInfo cluster = new ClusterInfo(null, null, null, null, null);
  private Instant now = Instant.ofEpochSecond(1_000_000);
  private String uid = "session-1";
  private TopologyKeeper topology;

  // ------------------------------------------------------------ building

  /** Adds a node (nodes keep the order they were added). */
  public FakeNode addNode(String name) {
    topology = null;
    return add(nodes, name, new FakeNode(name).in(this));
  }

  /** Adds a queue. */
  public FakeQueue addQueue(String name) {
    return add(queues, name, new FakeQueue(name));
  }

  /** Adds a job {@code namespace/name} in queue {@code default}. */
  public FakeJob addJob(String uid) {
    return add(jobs, uid, new FakeJob(uid));
  }

  private static <T> T add(Map<String, T> map, String key, T value) {
    if (map.putIfAbsent(key, value) != null) {
      throw new IllegalArgumentException(key + " already exists");
    }
    return value;
  }

  public FakeSession now(Instant now) {
    this.now = now;
    return this;
  }

  public FakeSession uid(String uid) {
    this.uid = uid;
    return this;
  }

  public FakeSession cluster(ClusterInfo cluster) {
    this.cluster = cluster;
    topology = null;
    return this;
  }

  // ------------------------------------------------------------ placements

  /**
   * Evicts a task placed on a node of this session, as the framework's evict does: the task is
   * Releasing, stays in its node's {@link FakeNode#tasks()} and leaves its {@link FakeNode#pods()}
   * and the shared topology counts.
   */
  public FakeSession evict(FakeTask task) {
    FakeNode node = node(task.nodeName());
    task.status(TaskStatus.RELEASING);
    if (node != null && node.evicted(task, true)) {
      podRemoved(task, node);
    }
    return this;
  }

  /** Undoes {@link #evict}: the task is Running and counted again. */
  public FakeSession undoEvict(FakeTask task) {
    FakeNode node = node(task.nodeName());
    task.status(TaskStatus.RUNNING);
    if (node != null && node.evicted(task, false)) {
      podAdded(task, node);
    }
    return this;
  }

  void podAdded(FakeTask task, FakeNode node) {
    if (topology != null) {
      topology.podAdded(task, node);
    }
  }

  void podRemoved(FakeTask task, FakeNode node) {
    if (topology != null) {
      topology.podRemoved(task, node);
    }
  }

  /** What {@link #jobFitError} answers for {@code job} (empty unless set). */
  public FakeSession fitError(JobInfo job, String message) {
    fitErrors.put(job.uid(), message);
    return this;
  }

  // ------------------------------------------------------------ what plugins wrote

  /** Events recorded so far, in order. */
  public List<RecordedEvent> events() {
    return List.copyOf(events);
  }

  /** The pod group conditions set on {@code job}, in the order their types were first set. */
  public List<PodCondition> conditions(JobInfo job) {
    return List.copyOf(conditions.getOrDefault(job.uid(), Map.of()).values());
  }

  /** The condition of {@code type} set on {@code job}, or null. */
  public PodCondition condition(JobInfo job, String type) {
    return conditions.getOrDefault(job.uid(), Map.of()).get(type);
  }

  // ------------------------------------------------------------ Session

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
    return new ArrayList<>(jobs.values());
  }

  @Override
  public FakeJob job(String uid) {
    return jobs.get(uid);
  }

  @Override
  public List<NodeInfo> nodes() {
    return new ArrayList<>(nodes.values());
  }

  @Override
  public FakeNode node(String name) {
    return nodes.get(name);
  }

  @Override
  public List<QueueInfo> queues() {
    return new ArrayList<>(queues.values());
  }

  @Override
  public FakeQueue queue(String name) {
    return queues.get(name);
  }

  @Override
  public Resource totalResource() {
    Resource total = Resource.empty();
    for (FakeNode n : nodes.values()) {
      total.add(n.allocatable());
    }
    return total;
  }

  @Override
  public ClusterInfo cluster() {
    return cluster;
  }

  /** The API's {@link TopologyKeeper} over this session's nodes, created on first use. */
  @Override
  public SessionTopology topology() {
    if (topology == null) {
      Map<String, Map<String, String>> namespaceLabels = new HashMap<>();
      for (Namespace ns : cluster.namespaces()) {
        namespaceLabels.put(ns.metadata().name(), ns.metadata().labels());
      }
      topology = new TopologyKeeper(new ArrayList<>(nodes.values()), namespaceLabels);
    }
    return topology;
  }

  @Override
  public FakeCycleState cycleState(TaskInfo task) {
    return cycleStates.computeIfAbsent(task.uid(), k -> new FakeCycleState());
  }

  @Override
  public List<TaskInfo> victimOrder(List<TaskInfo> victims, TaskInfo evictor) {
    return new ArrayList<>(victims);
  }

  @Override
  public void recordEvent(String kind, String key, String type, String reason, String message) {
    events.add(new RecordedEvent(kind, key, type, reason, message));
  }

  private final java.util.Map<String, List<dev.caldera.api.info.CardUse>> nodeCards =
      new java.util.TreeMap<>();

  @Override
  public void reportNodeCards(NodeInfo node, List<dev.caldera.api.info.CardUse> cards) {
    nodeCards.put(node.name(), List.copyOf(cards));
  }

  /** The card use reported per node name, by name. */
  public java.util.Map<String, List<dev.caldera.api.info.CardUse>> nodeCards() {
    return java.util.Collections.unmodifiableMap(nodeCards);
  }

  @Override
  public void setPodGroupCondition(JobInfo job, PodCondition condition) {
    conditions
        .computeIfAbsent(job.uid(), k -> new LinkedHashMap<>())
        .put(condition.type(), condition);
  }

  @Override
  public String jobFitError(JobInfo job) {
    return fitErrors.getOrDefault(job.uid(), "");
  }

  @Override
  public TaskStatus lastTransactionStatus(TaskInfo task) {
    return task instanceof FakeTask f ? f.lastTransactionStatus() : task.status();
  }
}
