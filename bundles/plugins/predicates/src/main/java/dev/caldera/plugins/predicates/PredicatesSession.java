package dev.caldera.plugins.predicates;

import dev.caldera.api.Session;
import dev.caldera.api.extension.CycleState;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.Namespace;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.NodeAffinity;
import dev.caldera.api.model.NodeSelectorTerm;
import dev.caldera.api.model.Toleration;
import dev.caldera.api.placement.SessionTopology;
import dev.caldera.api.placement.SpreadConstraint;
import dev.caldera.support.placement.SpreadConstraints;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The predicates plugin's work for one session.
 *
 * <p>Which pods count on a node: the node's {@link NodeInfo#tasks()} (occupying, releasing and
 * pipelined tasks, kept by the framework) minus the tasks this session deallocated, which is what
 * Volcano's own pod list holds (a pipelined task counts at once, an evicted one stops counting at
 * once). The event handler records deallocations and marks the node's cached view out of date.
 *
 * <p>Threads: {@link #predicate} may run concurrently for different nodes; the pre-predicate, the
 * event handler and the simulations' state changes run on the scheduling thread between predicate
 * rounds.
 */
final class PredicatesSession {

  private final PredicatesArguments args;
  private final Session session;
  private final List<NodeSlot> slotList = new ArrayList<>();
  private final Map<String, NodeSlot> slots = new HashMap<>();
  private final List<Namespace> namespaces;
  private final Map<String, Map<String, String>> namespaceLabels = new HashMap<>();

  /** Tasks deallocated in this session and not allocated again, by UID. */
  private final Map<String, Boolean> deallocated = new ConcurrentHashMap<>();

  private final Map<String, TaskFacts> facts = new ConcurrentHashMap<>();

  /** Pods whose invalid placement terms were reported in this session, by UID. */
  private final Set<String> reportedProblems = new HashSet<>();

  /** Node → pod template → whether the stable filters passed ({@code predicate.CacheEnable}). */
  private final Map<String, Map<String, Boolean>> stableCache = new ConcurrentHashMap<>();

  /** The volume filters and the volumes assumed in this session. */
  private final VolumeRules volumes;

  /** The state written by the latest pre-predicate, to skip the cycle-state lookup. */
  private volatile TaskState last;

  private NodeSlot slotOf(NodeInfo node) {
    int index = node.index();
    if (index >= 0 && index < slotList.size()) {
      NodeSlot slot = slotList.get(index);
      if (slot.info == node || slot.info.name().equals(node.name())) {
        return slot;
      }
    }
    return slots.get(node.name());
  }

  PredicatesSession(PredicatesArguments args, Session session) {
    this.args = args;
    this.session = session;
    for (NodeInfo node : session.nodes()) {
      NodeSlot slot = new NodeSlot(node);
      slotList.add(slot);
      slots.put(node.name(), slot);
    }
    this.namespaces = session.cluster().namespaces();
    for (Namespace ns : namespaces) {
      namespaceLabels.put(ns.metadata().name(), ns.metadata().labels());
    }
    this.volumes = new VolumeRules(session.cluster().storage(), args);
    if (!session.cluster().storage().claims().isEmpty()) {
      for (NodeInfo node : session.nodes()) {
        for (TaskInfo t : node.tasks()) {
          PodClaims claims = PodClaims.of(t.pod());
          if (!claims.isEmpty()) {
            volumes.countPlaced(t, claims);
          }
        }
      }
    }
  }

  // ------------------------------------------------------------ pre-predicate

  /**
   * Parses the pod once and takes the inter-pod affinity counts from the session's shared ones and
   * the spread counts over the current cluster, for the predicate and simulations that follow.
   */
  synchronized Status prePredicate(TaskInfo task) {
    TaskFacts f = facts(task);
    if (!f.placementProblems.isEmpty() && reportedProblems.add(task.uid())) {
      session.recordEvent(
          "Pod",
          task.key(),
          "Warning",
          Reasons.INVALID_PLACEMENT_TERMS,
          String.join("; ", f.placementProblems));
    }
    if (args.nodeAffinity() && f.nodeNamesConflict) {
      return Reasons.NODE_AFFINITY_CONFLICT_STATUS;
    }
    if (!f.claims.isEmpty()) {
      Status s = volumes.preFilter(task, f.claims);
      if (s != null) {
        return s;
      }
    }
    TaskState state = prepare(task, f);
    session.cycleState(task).write(TaskState.KEY, state);
    last = state;
    return Status.OK;
  }

  private TaskState prepare(TaskInfo task, TaskFacts f) {
    InterPodAffinityState affinity = args.podAffinity() ? affinityState(f) : null;
    SpreadState spread = args.podTopologySpread() && !f.spread.isEmpty() ? spreadState(f) : null;
    return new TaskState(task, f, affinity, spread);
  }

  /**
   * The inter-pod affinity state from the session's shared counts ({@link Session#topology()}):
   * existing pods' required anti-affinity matching this pod, and the pods matching its own required
   * terms.
   */
  private InterPodAffinityState affinityState(TaskFacts f) {
    SessionTopology topology = session.topology();
    InterPodAffinityState state =
        new InterPodAffinityState(
            f,
            namespaceLabels.getOrDefault(f.pod.namespace(), Map.of()),
            topology.existingRequiredAntiAffinity(f.pod),
            topology.matchingAll(f.affinity),
            topology.matchingEach(f.antiAffinity));
    return state.skippable() ? null : state;
  }

  private SpreadState spreadState(TaskFacts f) {
    List<SpreadConstraint> constraints = f.spread;
    SpreadState.Builder builder = new SpreadState.Builder(constraints);
    String namespace = f.pod.namespace();
    SessionTopology topology = session.topology();
    for (NodeSlot slot : slotList) {
      Node node = slot.info.node();
      Map<String, String> nodeLabels = labels(node);
      if (!hasTopologyKeys(nodeLabels, constraints)) {
        continue;
      }
      for (int i = 0; i < constraints.size(); i++) {
        SpreadConstraint c = constraints.get(i);
        if (!c.includes(f.placement, node)) {
          continue;
        }
        int matching = topology.matchingPods(slot.info, c.selector(), namespace);
        builder.domain(i, nodeLabels.get(c.topologyKey()), matching);
      }
    }
    return builder.build(f.pod.metadata().labels());
  }

  private static boolean hasTopologyKeys(
      Map<String, String> nodeLabels, List<SpreadConstraint> constraints) {
    for (SpreadConstraint c : constraints) {
      if (!nodeLabels.containsKey(c.topologyKey())) {
        return false;
      }
    }
    return true;
  }

  // ------------------------------------------------------------ predicate

  /**
   * Volcano's predicate: the pod count (does not stop the checks), the stable filters (node
   * unschedulable, node affinity, taints; each failure is final), then host ports, inter-pod
   * affinity and topology spread, stopping at a status preemption cannot resolve. All failures
   * found are returned together.
   */
  Status predicate(TaskInfo task, NodeInfo node) {
    NodeSlot slot = slotOf(node);
    if (slot == null) {
      return Reasons.NODE_INFO_NOT_FOUND_STATUS;
    }
    TaskState state = state(task);
    TaskFacts f = state.facts;
    Status result = null;
    if (node.allocatable().maxTaskNum() <= podCount(node, slot)) {
      result = Reasons.POD_COUNT_STATUS;
    }
    Node n = node.node();
    Status stable = args.cache() && f.templateUid != null ? cachedStable(f, n) : stable(f, n);
    if (stable != null) {
      return add(result, stable);
    }
    if (args.nodePorts()
        && f.hostPorts.length > 0
        && slot.view(deallocated).ports().conflicts(f.hostPorts)) {
      result = add(result, Reasons.NODE_PORTS_STATUS);
    }
    if (!f.claims.isEmpty()) {
      Status s = volumes.filter(task, f.claims, n, slot.view(deallocated).pods);
      if (s != null) {
        result = add(result, s);
        if (Reasons.aborts(s)) {
          return result;
        }
      }
    }
    Map<String, String> nodeLabels = labels(n);
    if (state.affinity != null) {
      Status s = state.affinity.filter(nodeLabels);
      if (s != null) {
        result = add(result, s);
        if (Reasons.aborts(s)) {
          return result;
        }
      }
    }
    if (state.spread != null) {
      Status s = state.spread.filter(nodeLabels);
      if (s != null) {
        result = add(result, s);
      }
    }
    return result == null ? Status.OK : result;
  }

  /**
   * The task's {@link dev.caldera.api.extension.NodeLocality} key: what {@link #predicate} reads of
   * it, when its answer on a node depends on that node alone; null when the task has inter-pod
   * affinity to check (its own required terms, or existing pods' anti-affinity that matches it),
   * hard spread constraints or volumes, whose answers depend on other nodes and pods.
   */
  Object localityKey(TaskInfo task) {
    TaskState state = state(task);
    TaskFacts f = state.facts;
    if (state.affinity != null || state.spread != null || !f.claims.isEmpty()) {
      return null;
    }
    NodeAffinity affinity = f.pod.nodeAffinity();
    return new LocalityKey(
        f.pod.nodeSelector(),
        affinity == null ? null : affinity.required(),
        f.tolerations,
        List.of(f.hostPorts),
        f.templateUid);
  }

  /** What the node-local part of the predicate reads of a pod. */
  private record LocalityKey(
      Map<String, String> nodeSelector,
      List<NodeSelectorTerm> requiredNodeAffinity,
      List<Toleration> tolerations,
      List<HostPorts.Wanted> hostPorts,
      String templateUid) {

    // Written out: a record's generated equals and hashCode are linked through method handles on
    // first use and run slower on the first JIT tier the launcher uses, and allocate hashes this
    // key once per task.
    @Override
    public boolean equals(Object o) {
      return o instanceof LocalityKey k
          && Objects.equals(nodeSelector, k.nodeSelector)
          && Objects.equals(requiredNodeAffinity, k.requiredNodeAffinity)
          && Objects.equals(tolerations, k.tolerations)
          && Objects.equals(hostPorts, k.hostPorts)
          && Objects.equals(templateUid, k.templateUid);
    }

    @Override
    public int hashCode() {
      int h = Objects.hashCode(nodeSelector);
      h = 31 * h + Objects.hashCode(requiredNodeAffinity);
      h = 31 * h + Objects.hashCode(tolerations);
      h = 31 * h + Objects.hashCode(hostPorts);
      return 31 * h + Objects.hashCode(templateUid);
    }
  }

  private int podCount(NodeInfo node, NodeSlot slot) {
    return deallocated.isEmpty() ? node.taskCount() : slot.view(deallocated).pods.size();
  }

  /** The first failing stable filter, or null. */
  private Status stable(TaskFacts f, Node node) {
    if (node.unschedulable() && !f.toleratesUnschedulable) {
      return Reasons.NODE_UNSCHEDULABLE_STATUS;
    }
    if (args.nodeAffinity() && !f.nodeSelection.isEmpty() && !f.nodeSelection.matches(node)) {
      return Reasons.NODE_AFFINITY_STATUS;
    }
    if (args.taintToleration()
        && SpreadConstraints.hasUntoleratedTaint(node.taints(), f.tolerations)) {
      return Reasons.TAINT_STATUS;
    }
    return null;
  }

  /**
   * The stable filters through the per-template cache: a cached failure is reported as Volcano's
   * generic cache error, not as the original reason.
   */
  private Status cachedStable(TaskFacts f, Node node) {
    Map<String, Boolean> byTemplate = stableCache.get(node.name());
    Boolean fit = byTemplate == null ? null : byTemplate.get(f.templateUid);
    if (fit != null) {
      return fit ? null : Reasons.CACHED_FAILURE_STATUS;
    }
    Status s = stable(f, node);
    stableCache
        .computeIfAbsent(node.name(), k -> new ConcurrentHashMap<>())
        .put(f.templateUid, s == null);
    return s;
  }

  private static Status add(Status sofar, Status failure) {
    return sofar == null ? failure : Status.combine(List.of(sofar, failure));
  }

  // ------------------------------------------------------------ simulations

  /** The inter-pod affinity filter against the simulated state in {@code state}. */
  Status simulatePredicate(CycleState state, TaskInfo task, NodeInfo node) {
    InterPodAffinityState affinity = simulated(state);
    if (affinity == null) {
      return Status.OK;
    }
    Status s = affinity.filter(labels(node.node()));
    return s == null ? Status.OK : s;
  }

  /** Counts {@code added} on {@code node} in the simulated state. */
  Status simulateAddTask(CycleState state, TaskInfo toSchedule, TaskInfo added, NodeInfo node) {
    return simulateUpdate(state, added, node, 1);
  }

  /** Uncounts {@code removed} on {@code node} in the simulated state. */
  Status simulateRemoveTask(
      CycleState state, TaskInfo toSchedule, TaskInfo removed, NodeInfo node) {
    return simulateUpdate(state, removed, node, -1);
  }

  private Status simulateUpdate(CycleState state, TaskInfo task, NodeInfo node, int delta) {
    InterPodAffinityState affinity = simulated(state);
    if (affinity != null) {
      affinity.update(facts(task), labels(node.node()), delta);
    }
    return Status.OK;
  }

  /** The inter-pod affinity state in a (copied) cycle state, or null when skipped or absent. */
  private InterPodAffinityState simulated(CycleState state) {
    if (!args.podAffinity()) {
      return null;
    }
    return state.read(TaskState.KEY) instanceof TaskState s ? s.affinity : null;
  }

  // ------------------------------------------------------------ events

  /** Keeps the per-node pod views in step with allocations and deallocations. */
  EventHandler eventHandler() {
    return new EventHandler() {
      @Override
      public Status allocated(TaskInfo task) {
        return onAllocated(task);
      }

      @Override
      public void deallocated(TaskInfo task) {
        onDeallocated(task);
      }
    };
  }

  /** The volume decisions assumed for a task, for its bind. */
  List<dev.caldera.api.extension.VolumeBinding> volumeBindings(TaskInfo task) {
    return volumes.bindings(task);
  }

  private synchronized Status onAllocated(TaskInfo task) {
    PodClaims claims = facts(task).claims;
    if (!claims.isEmpty()) {
      NodeInfo node = session.node(task.nodeName());
      Status s = node == null ? null : volumes.assume(task, claims, node.node());
      if (s != null) {
        return s;
      }
    }
    deallocated.remove(task.uid());
    touch(task.nodeName());
    return Status.OK;
  }

  private synchronized void onDeallocated(TaskInfo task) {
    PodClaims claims = facts(task).claims;
    if (!claims.isEmpty()) {
      volumes.release(task, claims);
    }
    deallocated.put(task.uid(), Boolean.TRUE);
    touch(task.nodeName());
  }

  /** Marks the node's view out of date; every node's when the task names none. */
  private void touch(String nodeName) {
    NodeSlot slot = slots.get(nodeName);
    if (slot != null) {
      slot.touch();
      return;
    }
    for (NodeSlot s : slotList) {
      s.touch();
    }
  }

  // ------------------------------------------------------------ helpers

  /** The state from the task's pre-predicate; computed now if there was none. */
  private TaskState state(TaskInfo task) {
    TaskState s = last;
    if (s != null && s.task == task) {
      return s;
    }
    CycleState cycleState = session.cycleState(task);
    if (cycleState.read(TaskState.KEY) instanceof TaskState stored) {
      return stored;
    }
    synchronized (this) {
      if (cycleState.read(TaskState.KEY) instanceof TaskState stored) {
        return stored;
      }
      TaskState prepared = prepare(task, facts(task));
      cycleState.write(TaskState.KEY, prepared);
      return prepared;
    }
  }

  private TaskFacts facts(TaskInfo task) {
    TaskFacts f = facts.get(task.uid());
    if (f == null) {
      f = facts.computeIfAbsent(task.uid(), k -> TaskFacts.of(task, namespaces));
    }
    return f;
  }

  private static Map<String, String> labels(Node node) {
    return node.metadata().labels();
  }
}
