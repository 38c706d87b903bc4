package dev.caldera.sim;

import dev.caldera.admission.Admission;
import dev.caldera.admission.ImplicitGroupNaming;
import dev.caldera.api.ClusterInfo;
import dev.caldera.api.extension.VolumeBinding;
import dev.caldera.api.model.Namespace;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.NodeMetrics;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodDisruptionBudget;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.PriorityClass;
import dev.caldera.api.model.Queue;
import dev.caldera.api.model.ResourceQuota;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.ClusterSource;
import dev.caldera.framework.ClusterWriter;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.loop.QueueLifecycle;
import dev.caldera.sim.internal.Pods;
import dev.caldera.sim.internal.SimulatedVolumes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The in-memory cluster a scenario runs on: it hands out snapshots and applies each session's
 * decisions the way a real cluster would see them ("Rules of the run" in {@code
 * scenario-format.md}). Nothing else changes between sessions. Thread-safe.
 *
 * <p>Objects are admitted ({@link Admission}) where the Kubernetes source admits them: when a
 * snapshot (or {@link #state()}) is taken, each pod once, the first time it is seen. The implicit
 * pod groups and stand-in queues admission adds are kept, so that session results can update them.
 */
public final class EmbeddedCluster implements ClusterSource, ClusterWriter, QueueLifecycle {

  /** The scheduler name whose pods are scheduled by Caldera. */
  private static final String SCHEDULER_NAME = "volcano";

  private static final String GROUP_ANNOTATION = Admission.GROUP_ANNOTATION;

  /**
   * What admission needs beyond the objects themselves.
   *
   * @param preemptionPolicies PriorityClass name → its {@code preemptionPolicy}, for the classes
   *     that set one
   * @param hierarchicalQueues whether the capacity plugin runs with {@code enableHierarchy} (an
   *     open {@code root} queue then stands in when there is none)
   */
  public record Rules(Map<String, String> preemptionPolicies, boolean hierarchicalQueues) {
    /** No preemption policies, flat queues: enough for objects admitted already. */
    public static final Rules NONE = new Rules(Map.of(), false);

    public Rules {
      preemptionPolicies = Map.copyOf(Objects.requireNonNull(preemptionPolicies));
    }
  }

  private final List<Node> nodes;
  private final Map<String, Pod> pods = new LinkedHashMap<>();
  private final Map<String, PodGroup> podGroups = new LinkedHashMap<>();
  private final Map<String, Queue> queues = new LinkedHashMap<>();
  private final List<PriorityClass> priorityClasses;
  private final List<PodDisruptionBudget> podDisruptionBudgets;
  private final List<ResourceQuota> resourceQuotas;
  private final List<Namespace> namespaces;
  private final Map<String, NodeMetrics> metrics;
  private final SimulatedVolumes volumes;
  private Instant clock = Instant.EPOCH;
  private final Map<String, String> policies;
  private final Admission admission;
  private final boolean hierarchicalQueues;

  /** Keys of the pods not admitted yet, in the order they came. */
  private final Set<String> unadmitted = new LinkedHashSet<>();

  /**
   * @param initial the objects as written (see {@link Scenario#objects()}), admitted with {@link
   *     Rules#NONE} at the first snapshot
   * @param metrics node name → usage, for the usage plugin
   */
  public EmbeddedCluster(ClusterState initial, Map<String, NodeMetrics> metrics) {
    this(initial, metrics, Map.of());
  }

  /**
   * A cluster with policy sources (file name → text) that every snapshot carries, like a policies
   * ConfigMap.
   */
  public EmbeddedCluster(
      ClusterState initial, Map<String, NodeMetrics> metrics, Map<String, String> policies) {
    this(initial, metrics, policies, Rules.NONE);
  }

  /** A cluster whose objects are admitted under {@code rules}. */
  public EmbeddedCluster(
      ClusterState initial,
      Map<String, NodeMetrics> metrics,
      Map<String, String> policies,
      Rules rules) {
    this.policies = policies == null ? Map.of() : Map.copyOf(policies);
    this.nodes = initial.nodes();
    initial.pods().forEach(p -> pods.put(p.key(), p));
    unadmitted.addAll(pods.keySet());
    initial.podGroups().forEach(pg -> podGroups.put(pg.key(), pg));
    initial.queues().forEach(q -> queues.put(q.name(), q));
    this.priorityClasses = initial.priorityClasses();
    this.podDisruptionBudgets = initial.podDisruptionBudgets();
    this.resourceQuotas = initial.resourceQuotas();
    this.namespaces = initial.namespaces();
    this.metrics = metrics == null ? Map.of() : Map.copyOf(metrics);
    this.volumes = new SimulatedVolumes(initial.storage());
    this.admission =
        new Admission(priorityClasses, rules.preemptionPolicies(), ImplicitGroupNaming.POD_UID);
    this.hierarchicalQueues = rules.hierarchicalQueues();
  }

  /**
   * Admits the pods not seen yet (a pod of this scheduler without a group gets its implicit one,
   * which joins the pod groups) and stands in the queues Volcano's controllers create. Every object
   * is admitted once: an admitted pod keeps its priority and group annotation, so admitting it
   * again would change nothing.
   */
  private void admitNew() {
    if (!unadmitted.isEmpty()) {
      for (String key : unadmitted) {
        Pod p = pods.get(key);
        if (p != null) {
          pods.put(key, admission.admit(p, SCHEDULER_NAME.equals(p.schedulerName()), podGroups));
        }
      }
      unadmitted.clear();
    }
    if (queues.isEmpty() || (hierarchicalQueues && !queues.containsKey(Admission.ROOT_QUEUE))) {
      for (Queue q :
          Admission.withDefaultQueues(List.copyOf(queues.values()), hierarchicalQueues)) {
        queues.putIfAbsent(q.name(), q);
      }
    }
  }

  /**
   * What a session sees at {@code now}: the nodes in manifest order, every pod of the scheduler and
   * every pod of any scheduler that is on a node (Succeeded and Failed ones included), all pod
   * groups and queues, and the rest of the cluster.
   */
  /** A snapshot at the wall-clock time (the live loop of {@code caldera run}). */
  @Override
  public ClusterSnapshot snapshot() {
    return snapshot(Instant.now());
  }

  /** A snapshot at {@code now} (scenarios run on their own clock). */
  public synchronized ClusterSnapshot snapshot(Instant now) {
    clock = now;
    admitNew();
    List<Pod> visible = new ArrayList<>();
    for (Pod p : pods.values()) {
      if (SCHEDULER_NAME.equals(p.schedulerName()) || !p.nodeName().isEmpty()) {
        visible.add(p);
      }
    }
    ClusterInfo info =
        new ClusterInfo(
            priorityClasses,
            podDisruptionBudgets,
            resourceQuotas,
            namespaces,
            metrics,
            policies,
            volumes.storage());
    return new ClusterSnapshot(
        nodes, visible, List.copyOf(podGroups.values()), List.copyOf(queues.values()), info, now);
  }

  /**
   * Applies a session's decisions: pod status updates (conditions, nominated node), binds (the pod
   * is Running on its node, its claims bound or provisioned first), evictions (the pod is gone),
   * pod group phases and conditions, and queue {@code status.allocated}. A pipelined pod stays
   * Pending and unplaced.
   *
   * @throws IllegalArgumentException if the result names a pod, pod group or queue that this
   *     cluster does not hold (a scheduler bug)
   */
  @Override
  public synchronized void apply(SessionResult result) {
    if (result.pods() != null) {
      result
          .pods()
          .forEach(
              (key, update) ->
                  pods.put(
                      key,
                      Pods.updated(
                          pod(key), update.condition(), update.nominatedNodeName(), clock)));
    }
    for (SessionResult.Bind b : result.binds()) {
      Pod bound = Pods.bound(pod(b.pod()), b.node(), clock);
      for (VolumeBinding v : b.volumes()) {
        volumes.bind(v, node(b.node()));
      }
      pods.put(b.pod(), bound);
    }
    for (SessionResult.Eviction e : result.evictions()) {
      pods.remove(e.pod());
    }
    // A write that changes nothing leaves the object as it is, as an API server does (the same
    // object for the next snapshot: sessions take again what did not change).
    if (result.podGroups() != null) {
      result
          .podGroups()
          .forEach(
              (key, status) -> {
                PodGroup updated = withStatus(key, status);
                if (!updated.equals(podGroups.get(key))) {
                  podGroups.put(key, updated);
                }
              });
    }
    if (result.queueAllocated() != null) {
      result
          .queueAllocated()
          .forEach(
              (name, allocated) -> {
                Queue q = queues.get(name);
                if (q == null) {
                  throw new IllegalArgumentException("session result names unknown queue " + name);
                }
                Queue updated = q.withAllocated(allocated);
                if (!updated.equals(q)) {
                  queues.put(name, updated);
                }
              });
    }
    // No Volcano queue controller here: the scheduler keeps queue states (Closing → Closed).
    result
        .queueStates()
        .forEach(
            (name, state) -> queues.computeIfPresent(name, (n, q) -> withState(q, state, null)));
  }

  /**
   * Closes, drains or opens a queue: its {@code status.state} as {@link QueueLifecycle#stateAfter}
   * says, a drain marked with {@link QueueLifecycle#DRAIN_ANNOTATION} (open removes it); closing or
   * draining a queue does the same to the queues under it, and {@code root} is never closed, as
   * {@link QueueLifecycle#plan} says. The following sessions carry it on.
   */
  @Override
  public synchronized Outcome apply(String name, Command command) {
    Queue q = queues.get(name);
    QueueLifecycle.Plan plan = QueueLifecycle.plan(name, command, queues.values());
    if (plan.refused() != null) {
      return new Outcome(Result.REFUSED, q == null ? "" : q.state(), plan.refused());
    }
    if (q == null) {
      return new Outcome(Result.NOT_FOUND, "", "queue " + name + " does not exist");
    }
    for (QueueLifecycle.Change c : plan.changes()) {
      queues.computeIfPresent(c.queue(), (n, old) -> withState(old, c.state(), c.drain()));
    }
    return new Outcome(
        Result.DONE,
        plan.changes().get(0).state(),
        QueueLifecycle.done(plan, command, queues.values()));
  }

  /**
   * {@code q} with another state, and the drain mark set (true), removed (false) or kept (null).
   */
  private static Queue withState(Queue q, String state, Boolean drain) {
    Map<String, String> annotations = new LinkedHashMap<>(q.metadata().annotations());
    if (Boolean.TRUE.equals(drain)) {
      annotations.put(QueueLifecycle.DRAIN_ANNOTATION, "true");
    } else if (Boolean.FALSE.equals(drain)) {
      annotations.remove(QueueLifecycle.DRAIN_ANNOTATION);
    }
    return q.withAnnotations(annotations).withState(state);
  }

  /**
   * Adds a pod group and its pods, as a controller would create them (the live workload of {@code
   * caldera run}); an object with the same key is replaced.
   */
  public synchronized void submit(PodGroup group, List<Pod> groupPods) {
    podGroups.put(group.key(), group);
    submit(groupPods);
  }

  /**
   * Adds pods (of pod groups the cluster holds, as a job controller recreates them); the next
   * snapshot admits them.
   */
  public synchronized void submit(List<Pod> newPods) {
    for (Pod p : newPods) {
      pods.put(p.key(), p);
      unadmitted.add(p.key());
    }
  }

  /**
   * Sets a pod's phase (a container that ended: {@code Succeeded} or {@code Failed}); the pod keeps
   * its node, where it occupies nothing any more.
   *
   * @return false when the cluster does not hold the pod
   */
  public synchronized boolean setPodPhase(String podKey, String phase) {
    Pod p = pods.get(podKey);
    if (p == null) {
      return false;
    }
    pods.put(podKey, p.withStatus(p.nodeName(), phase, p.nominatedNodeName(), p.conditions()));
    return true;
  }

  /** Deletes a pod group and every pod that names it, as deleting a finished job does. */
  public synchronized void delete(String podGroupKey) {
    PodGroup pg = podGroups.remove(podGroupKey);
    if (pg == null) {
      return;
    }
    pods.values()
        .removeIf(
            p ->
                p.namespace().equals(pg.metadata().namespace())
                    && pg.metadata()
                        .name()
                        .equals(p.metadata().annotations().get(GROUP_ANNOTATION)));
  }

  /** Every object as it is now, admitted as the next snapshot would admit it. */
  public synchronized ClusterState state() {
    admitNew();
    return new ClusterState(
        nodes,
        List.copyOf(pods.values()),
        List.copyOf(podGroups.values()),
        List.copyOf(queues.values()),
        priorityClasses,
        podDisruptionBudgets,
        resourceQuotas,
        namespaces,
        volumes.storage());
  }

  private Node node(String name) {
    for (Node n : nodes) {
      if (n.name().equals(name)) {
        return n;
      }
    }
    return null;
  }

  private Pod pod(String key) {
    Pod p = pods.get(key);
    if (p == null) {
      throw new IllegalArgumentException("session result names unknown pod " + key);
    }
    return p;
  }

  private PodGroup withStatus(String key, SessionResult.PodGroupStatus status) {
    PodGroup pg = podGroups.get(key);
    if (pg == null) {
      throw new IllegalArgumentException("session result names unknown pod group " + key);
    }
    return pg.withStatus(
        status.phase() == null ? pg.phase() : status.phase(),
        status.conditions() == null ? pg.conditions() : status.conditions());
  }
}
