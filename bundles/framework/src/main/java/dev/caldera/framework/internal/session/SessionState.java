package dev.caldera.framework.internal.session;

import dev.caldera.api.ClusterInfo;
import dev.caldera.api.Session;
import dev.caldera.api.extension.CycleState;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.Namespace;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.placement.SessionTopology;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.framework.conf.SchedulerConf;
import dev.caldera.support.placement.TopologyKeeper;
import dev.caldera.support.resource.Resource;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What one session holds of its snapshot: the jobs, nodes and queues as session state (the views
 * plugins read), their indexes by key, the topology, and what could not be made a job of.
 */
abstract class SessionState implements Session {

  /**
   * What a session could not make a job of.
   *
   * @param orphans pod groups left out because their queue does not exist
   * @param orphanPods the pods of each of them, by pod group key
   * @param podsWithoutGroup pending pods whose group annotation names a pod group that does not
   *     exist, by the key it names ({@code namespace/name})
   */
  record Leftovers(
      List<PodGroup> orphans,
      Map<String, List<Pod>> orphanPods,
      Map<String, List<Pod>> podsWithoutGroup) {
    static final Leftovers NONE = new Leftovers(List.of(), Map.of(), Map.of());
  }

  private final String uid;
  private final Instant now;
  private final SchedulerConf conf;
  private final ClusterInfo clusterInfo;
  private final List<JobInfo> jobs;
  private final Map<String, JobState> jobMap;
  private final List<NodeInfo> nodes;
  private final Map<String, NodeState> nodeMap;
  private final List<QueueInfo> queues;
  private final Map<String, QueueState> queueMap;
  private final Resource totalResource;
  private final TopologyKeeper topology;
  private final Map<String, CycleState> cycleStates = new ConcurrentHashMap<>();
  private Map<String, TaskState> tasksByKey;
  private Leftovers leftovers = Leftovers.NONE;

  SessionState(
      String uid,
      Instant now,
      SchedulerConf conf,
      ClusterInfo clusterInfo,
      List<JobState> jobs,
      List<NodeState> nodes,
      List<QueueState> queues) {
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
    Map<String, Map<String, String>> namespaceLabels = new HashMap<>();
    for (Namespace ns : clusterInfo.namespaces()) {
      namespaceLabels.put(ns.metadata().name(), ns.metadata().labels());
    }
    this.topology = new TopologyKeeper(this.nodes, namespaceLabels);
    nodes.forEach(n -> n.topology(topology));
  }

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

  /** Whether the conf lists the action {@code name} (ActionSession). */
  public boolean actionConfigured(String name) {
    return conf.actions().contains(name);
  }

  /** The conf's configuration of {@code action} (ActionSession). */
  public Map<String, Object> actionArguments(String action) {
    return conf.configurations().getOrDefault(action, Map.of());
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

  SchedulerConf conf() {
    return conf;
  }

  Map<String, QueueState> queueMap() {
    return queueMap;
  }

  Map<String, JobState> jobMap() {
    return jobMap;
  }

  Map<String, NodeState> nodeMap() {
    return nodeMap;
  }

  Leftovers leftovers() {
    return leftovers;
  }

  void leftovers(Leftovers leftovers) {
    this.leftovers = leftovers;
  }
}
