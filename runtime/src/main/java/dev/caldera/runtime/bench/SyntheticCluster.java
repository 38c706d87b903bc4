package dev.caldera.runtime.bench;

import dev.caldera.api.ClusterInfo;
import dev.caldera.api.model.Container;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.Queue;
import dev.caldera.api.resource.Quantity;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.SessionResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The benchmark's synthetic cluster ({@code bench-workload.md}), built directly as model objects,
 * and the decisions of each session applied to it: a bound pod runs on its node, an evicted pod is
 * gone, a pipelined pod stays pending, pod groups take the phase the session wrote.
 */
public final class SyntheticCluster implements SessionTarget {

  /** Where all creation timestamps start. */
  public static final Instant BASE_TIME = Instant.parse("2026-01-01T00:00:00Z");

  static final String NAMESPACE = "bench";
  static final String SCHEDULER_NAME = "volcano";
  static final String GROUP_ANNOTATION = "scheduling.k8s.io/group-name";
  static final String ZONE_LABEL = "topology.kubernetes.io/zone";

  private final List<Node> nodes;
  private final Queue[] queues;
  private final PodGroup[] podGroups;
  private final Pod[] pods;
  private final Map<String, Integer> queueIndex;
  private final Map<String, Integer> podGroupIndex;
  private final Map<String, Integer> podIndex;
  private final Instant now;

  private SyntheticCluster(
      List<Node> nodes, Queue[] queues, PodGroup[] podGroups, Pod[] pods, Instant now) {
    this.nodes = nodes;
    this.queues = queues;
    this.podGroups = podGroups;
    this.pods = pods;
    this.now = now;
    this.queueIndex = index(queues.length, i -> queues[i].name());
    this.podGroupIndex = index(podGroups.length, i -> podGroups[i].key());
    this.podIndex = index(pods.length, i -> pods[i].key());
  }

  /**
   * Generates the workload: {@code nodes} nodes, {@code pods / tasksPerJob} jobs round-robin over
   * {@code queues} queues.
   *
   * @throws IllegalArgumentException if a count is out of range or {@code pods} is not a multiple
   *     of {@code tasksPerJob}
   */
  public static SyntheticCluster generate(int nodes, int pods, int queues, int tasksPerJob) {
    if (nodes < 1 || pods < 0 || queues < 1 || tasksPerJob < 1) {
      throw new IllegalArgumentException(
          "expected nodes >= 1, pods >= 0, queues >= 1, tasks per job >= 1");
    }
    if (pods % tasksPerJob != 0) {
      throw new IllegalArgumentException(
          "pods (" + pods + ") must be a multiple of tasks per job (" + tasksPerJob + ")");
    }
    Map<String, Quantity> allocatable =
        Map.of(
            "cpu", Quantity.parse("32"),
            "memory", Quantity.parse("128Gi"),
            "pods", Quantity.parse("110"));
    List<Map<String, String>> zones = new ArrayList<>();
    for (int z = 0; z < 4; z++) {
      zones.add(Map.of(ZONE_LABEL, "zone-" + z));
    }
    List<Node> nodeList = new ArrayList<>(nodes);
    for (int i = 0; i < nodes; i++) {
      ObjectMeta meta =
          new ObjectMeta(
              String.format("node-%05d", i), "", null, null, null, zones.get(i % 4), null, null);
      nodeList.add(new Node(meta, false, null, allocatable, allocatable, null));
    }

    Queue[] queueArray = new Queue[queues];
    for (int q = 0; q < queues; q++) {
      queueArray[q] =
          new Queue(
              ObjectMeta.named("", queueName(q)),
              1,
              null,
              null,
              null,
              null,
              "",
              0,
              null,
              null,
              "Open",
              null);
    }

    int jobs = pods / tasksPerJob;
    Container container =
        new Container(
            "c",
            null,
            Map.of("cpu", Quantity.parse("1"), "memory", Quantity.parse("2Gi")),
            null,
            null);
    List<Container> containers = List.of(container);
    PodGroup[] groupArray = new PodGroup[jobs];
    Pod[] podArray = new Pod[pods];
    for (int j = 0; j < jobs; j++) {
      String group = "job-" + j;
      Instant created = BASE_TIME.plusSeconds(j);
      groupArray[j] =
          new PodGroup(
              new ObjectMeta(group, NAMESPACE, null, created, null, null, null, null),
              queueName(j % queues),
              tasksPerJob,
              null,
              null,
              null,
              "Inqueue",
              null);
      Map<String, String> annotations = Map.of(GROUP_ANNOTATION, group);
      for (int k = 0; k < tasksPerJob; k++) {
        ObjectMeta meta =
            new ObjectMeta(
                group + "-" + k, NAMESPACE, null, created, null, null, annotations, null);
        podArray[j * tasksPerJob + k] = pendingPod(meta, containers);
      }
    }
    Instant now = BASE_TIME.plusSeconds(jobs).plusSeconds(3600);
    return new SyntheticCluster(List.copyOf(nodeList), queueArray, groupArray, podArray, now);
  }

  static String queueName(int q) {
    return String.format("queue-%02d", q);
  }

  /** An independent copy in the current state (for warm-up sessions). */
  public SyntheticCluster copy() {
    return new SyntheticCluster(nodes, queues.clone(), podGroups.clone(), pods.clone(), now);
  }

  @Override
  public ClusterSnapshot snapshot() {
    List<Pod> present = new ArrayList<>(pods.length);
    for (Pod p : pods) {
      if (p != null) {
        present.add(p);
      }
    }
    return new ClusterSnapshot(
        nodes,
        present,
        Arrays.asList(podGroups),
        Arrays.asList(queues),
        new ClusterInfo(null, null, null, null, null),
        now);
  }

  @Override
  public void apply(SessionResult result) {
    for (SessionResult.Bind b : result.binds()) {
      Integer i = podIndex.get(b.pod());
      if (i != null && pods[i] != null) {
        pods[i] = placed(pods[i], b.node());
      }
    }
    for (SessionResult.Eviction e : result.evictions()) {
      Integer i = podIndex.get(e.pod());
      if (i != null) {
        pods[i] = null;
      }
    }
    for (Map.Entry<String, SessionResult.PodGroupStatus> e : result.podGroups().entrySet()) {
      Integer i = podGroupIndex.get(e.getKey());
      if (i != null) {
        SessionResult.PodGroupStatus s = e.getValue();
        PodGroup updated = podGroups[i].withStatus(s.phase(), s.conditions());
        // A write that changes nothing leaves the object as it was, as on an API server, so the
        // next session takes the job's state again instead of opening it anew.
        if (!updated.equals(podGroups[i])) {
          podGroups[i] = updated;
        }
      }
    }
    for (Map.Entry<String, Map<String, Quantity>> e : result.queueAllocated().entrySet()) {
      Integer i = queueIndex.get(e.getKey());
      if (i != null) {
        Queue updated = queues[i].withAllocated(e.getValue());
        if (!updated.equals(queues[i])) {
          queues[i] = updated;
        }
      }
    }
  }

  /** Number of nodes. */
  public int nodeCount() {
    return nodes.size();
  }

  /** Number of pod groups (jobs). */
  public int jobCount() {
    return podGroups.length;
  }

  private static Pod pendingPod(ObjectMeta meta, List<Container> containers) {
    return new Pod(
        meta,
        SCHEDULER_NAME,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        containers,
        null,
        null,
        null,
        null,
        "Pending",
        null,
        null);
  }

  private static Pod placed(Pod p, String node) {
    return p.withStatus(node, "Running", "", p.conditions());
  }

  private static Map<String, Integer> index(int n, java.util.function.IntFunction<String> key) {
    Map<String, Integer> m = new HashMap<>(n * 2);
    for (int i = 0; i < n; i++) {
      m.put(key.apply(i), i);
    }
    return m;
  }
}
