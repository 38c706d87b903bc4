package dev.caldera.kube.internal;

import dev.caldera.admission.Admission;
import dev.caldera.admission.ImplicitGroupNaming;
import dev.caldera.admission.PodCopies;
import dev.caldera.api.ClusterInfo;
import dev.caldera.api.info.PodFacts;
import dev.caldera.api.model.CSINode;
import dev.caldera.api.model.Namespace;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.NodeMetrics;
import dev.caldera.api.model.PersistentVolume;
import dev.caldera.api.model.PersistentVolumeClaim;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodDisruptionBudget;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.PriorityClass;
import dev.caldera.api.model.Queue;
import dev.caldera.api.model.ResourceQuota;
import dev.caldera.api.model.Storage;
import dev.caldera.api.model.StorageClass;
import dev.caldera.api.resource.ResourceNames;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.support.resource.Resource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The scheduler's view of the cluster: what the informers delivered, already converted to the
 * model, plus the writer's own work in flight (binds sent but not yet seen back, evictions sent but
 * the pod not yet terminating). One lock guards everything, so a snapshot is one point in time
 * across all kinds.
 *
 * <p>A pod with a bind in flight shows its target node (Volcano's Binding/Bound task), so no later
 * session binds it again; the overlay ends when the informer shows the pod on a node, when the pod
 * is deleted, or when the bind fails. A pod with an eviction in flight shows a deletion time
 * (Releasing) until the informer shows it terminating or gone, or the eviction fails.
 */
public final class ClusterCache {

  private final Map<String, Node> nodes = new LinkedHashMap<>();
  private final Map<String, Pod> pods = new LinkedHashMap<>();
  private final Map<String, PodGroup> podGroups = new LinkedHashMap<>();
  private final Map<String, int[]> podGroupCounts = new HashMap<>();
  private final Map<String, Queue> queues = new LinkedHashMap<>();
  private final Set<String> queuesWithoutState = new HashSet<>();

  /**
   * Queue name → the {@code metadata.resourceVersion} of the last version of it that an informer
   * showed or a write of Caldera's answered with: a state write is made on that version only.
   */
  private final Map<String, String> queueVersions = new HashMap<>();

  private final Map<String, PriorityClass> priorityClasses = new LinkedHashMap<>();
  private final Map<String, String> preemptionPolicies = new HashMap<>();
  private final Map<String, PodDisruptionBudget> pdbs = new LinkedHashMap<>();
  private final Map<String, ResourceQuota> quotas = new LinkedHashMap<>();
  private final Map<String, Namespace> namespaces = new LinkedHashMap<>();
  private final Map<String, PersistentVolume> volumes = new LinkedHashMap<>();
  private final Map<String, PersistentVolumeClaim> claims = new LinkedHashMap<>();
  private final Map<String, StorageClass> storageClasses = new LinkedHashMap<>();
  private final Map<String, CSINode> csiNodes = new LinkedHashMap<>();
  private final Map<String, String> bindsInFlight = new HashMap<>();

  /** Node name → keys of the pods with a bind in flight to it (the index of the map above). */
  private final Map<String, Set<String>> bindsInFlightByNode = new HashMap<>();

  /** Node name → keys of the pods the informers show on it (any phase). */
  private final Map<String, Set<String>> podsByNode = new HashMap<>();

  private final Map<String, Instant> evictionsInFlight = new HashMap<>();

  /** Pod group key → keys of the pods that name it and have not finished (any scheduler). */
  private final Map<String, Set<String>> podsByGroup = new HashMap<>();

  /** Informers whose list is being handed over (between fabric8's onBeforeList and onList). */
  private final Set<String> listing = new TreeSet<>();

  private Map<String, NodeMetrics> metrics = Map.of();

  /** The scheduler names whose pending pods are work; empty: every scheduler's. */
  private final Set<String> schedulerNames;

  private volatile Runnable workListener;

  /** A cache whose work is the pending pods of any scheduler. */
  ClusterCache() {
    this(Set.of());
  }

  /**
   * @param schedulerNames the scheduler names whose pending pods are work for a session
   */
  public ClusterCache(Set<String> schedulerNames) {
    this.schedulerNames = Set.copyOf(schedulerNames);
  }

  /**
   * Registers what to call when a change arrives that a session may act on (see {@code
   * ClusterSource#onWorkArrived}); the echoes of the writer's own updates (a bind, a pod condition,
   * a pod group's or queue's status) are not such changes. Null removes it.
   */
  public void onWork(Runnable listener) {
    this.workListener = listener;
  }

  private void work() {
    Runnable l = workListener;
    if (l != null) {
      l.run();
    }
  }

  // ---- informer side -------------------------------------------------------------------------

  /** {@code informer} starts or ends handing over a list. */
  synchronized void listing(String informer, boolean inProgress) {
    if (inProgress) {
      listing.add(informer);
    } else if (listing.remove(informer) && listing.isEmpty()) {
      notifyAll();
      work(); // a list after a reconnect may hold anything
    }
  }

  /** The informers whose list is being handed over, by name. */
  public synchronized List<String> listing() {
    return List.copyOf(listing);
  }

  /** Waits until no list is being handed over; false on timeout. */
  public synchronized boolean awaitListsDelivered(long timeoutNanos) throws InterruptedException {
    long deadline = System.nanoTime() + timeoutNanos;
    while (!listing.isEmpty()) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return true;
  }

  synchronized void putNode(Node n) {
    Node old = nodes.put(n.name(), n);
    if (!n.equals(old)) {
      work();
    }
  }

  synchronized void removeNode(String name) {
    if (nodes.remove(name) != null) {
      work();
    }
  }

  synchronized void putPod(Pod p) {
    p = withNodesName(p);
    Pod old = pods.put(p.key(), p);
    if (old != null) {
      leaveGroup(old);
    }
    joinGroup(p);
    if (isWork(old, p)) {
      work();
    }
    if (old != null && !old.nodeName().equals(p.nodeName())) {
      unplace(old);
    }
    if (!p.nodeName().isEmpty()) {
      podsByNode.computeIfAbsent(p.nodeName(), n -> new LinkedHashSet<>()).add(p.key());
      endBindLocked(p.key());
    }
    if (p.metadata().deletionTimestamp() != null) {
      evictionsInFlight.remove(p.key());
    }
  }

  /**
   * {@code p} naming its node with the node's own string: each pod read from the API server has a
   * string of its own, and a session reads the node name of every pod of the cluster (and looks it
   * up by it), so 20,000 bound pods would be 20,000 strings to fetch from memory instead of one a
   * node.
   */
  private Pod withNodesName(Pod p) {
    String name = p.nodeName();
    if (name.isEmpty()) {
      return p;
    }
    Node node = nodes.get(name);
    if (node == null || node.name() == name) {
      return p;
    }
    return p.withStatus(node.name(), p.phase(), p.nominatedNodeName(), p.conditions());
  }

  synchronized void removePod(String key) {
    Pod old = pods.remove(key);
    if (old != null) {
      unplace(old);
      leaveGroup(old);
      if (occupies(old) && (!old.nodeName().isEmpty() || ours(old))) {
        work(); // its node has room again, or its gang changed
      }
    }
    endBindLocked(key);
    evictionsInFlight.remove(key);
  }

  /**
   * Whether a pod's update may give a session something to do: a pending pod of ours that is new or
   * changed in what it asks for, a pod that finished, or one that is being deleted. A pod bound (by
   * our bind or anyone's) or a change of its conditions or nominated node is not.
   */
  private boolean isWork(Pod old, Pod p) {
    if (old == null) {
      return p.nodeName().isEmpty() && occupies(p) && ours(p) && gangComplete(p);
    }
    if (occupies(old) && !occupies(p)) {
      return true;
    }
    if (old.metadata().deletionTimestamp() == null && p.metadata().deletionTimestamp() != null) {
      return true;
    }
    if (!p.nodeName().isEmpty() || !ours(p)) {
      return false;
    }
    Pod statusOnly = old.withStatus(p.nodeName(), p.phase(), p.nominatedNodeName(), p.conditions());
    return !statusOnly.equals(p) && gangComplete(p);
  }

  /**
   * Whether the pod's gang has its minimum of members: a pod without a group (an implicit group of
   * one), or one whose group is known and named by at least {@code minMember} pods. The pods of a
   * gang arrive one by one; a session for each would find the gang short and write its conditions
   * and events again and again. The pod that completes the gang (or its group, arriving last) is
   * the work; a gang that stays short is reported by the periodic session, as Volcano does.
   */
  private boolean gangComplete(Pod p) {
    String group = groupKey(p);
    if (group == null) {
      return true;
    }
    PodGroup pg = podGroups.get(group);
    return pg != null && members(group) >= pg.minMember();
  }

  private int members(String groupKey) {
    Set<String> members = podsByGroup.get(groupKey);
    return members == null ? 0 : members.size();
  }

  /** The key of the pod group the pod names, as sessions group it into jobs, or null. */
  private static String groupKey(Pod p) {
    String key = PodFacts.jobKey(p);
    return key.isEmpty() ? null : key;
  }

  private void joinGroup(Pod p) {
    String group = groupKey(p);
    if (group != null && occupies(p)) {
      podsByGroup.computeIfAbsent(group, g -> new HashSet<>()).add(p.key());
    }
  }

  private void leaveGroup(Pod p) {
    String group = groupKey(p);
    Set<String> members = group == null ? null : podsByGroup.get(group);
    if (members != null) {
      members.remove(p.key());
      if (members.isEmpty()) {
        podsByGroup.remove(group);
      }
    }
  }

  private boolean ours(Pod p) {
    return schedulerNames.isEmpty() || schedulerNames.contains(p.schedulerName());
  }

  private void unplace(Pod p) {
    Set<String> onNode = podsByNode.get(p.nodeName());
    if (onNode != null) {
      onNode.remove(p.key());
      if (onNode.isEmpty()) {
        podsByNode.remove(p.nodeName());
      }
    }
  }

  synchronized void putPodGroup(PodGroup pg, int[] counts) {
    PodGroup old = podGroups.put(pg.key(), pg);
    podGroupCounts.put(pg.key(), counts.clone());
    boolean changed = old == null || !old.withStatus(pg.phase(), pg.conditions()).equals(pg);
    if (changed && members(pg.key()) >= pg.minMember()) {
      work(); // new or changed in more than its status, with its gang complete
    }
  }

  synchronized void removePodGroup(String key) {
    podGroupCounts.remove(key);
    if (podGroups.remove(key) != null) {
      work();
    }
  }

  /**
   * @param stateOnServer whether the server's {@code status.state} is set
   * @param resourceVersion the version of the queue on the server, or null if not known
   */
  synchronized void putQueue(Queue q, boolean stateOnServer, String resourceVersion) {
    putQueueLocked(q);
    if (stateOnServer) {
      queuesWithoutState.remove(q.name());
    } else {
      queuesWithoutState.add(q.name());
    }
    if (resourceVersion == null || resourceVersion.isEmpty()) {
      queueVersions.remove(q.name());
    } else {
      queueVersions.put(q.name(), resourceVersion);
    }
  }

  /**
   * The queue's version on the server as a write of Caldera's answered it; null (the answer had
   * none) leaves the version as it is, which is then older than the server's: a state write made on
   * it is refused, never wrongly accepted.
   */
  synchronized void queueWritten(String name, String resourceVersion) {
    if (resourceVersion != null && !resourceVersion.isEmpty() && queues.containsKey(name)) {
      queueVersions.put(name, resourceVersion);
    }
  }

  /** The writer's own update of a queue (its state is on the server, or being written). */
  synchronized void putQueue(Queue q) {
    putQueueLocked(q);
    queuesWithoutState.remove(q.name());
  }

  /**
   * A command's update of a queue, with the version its last write answered with (null: it wrote
   * nothing, or the answer had none; the version is then left as it is), in one step: a state write
   * never reads the new state with the old version or the reverse.
   */
  synchronized void putQueueWritten(Queue q, String resourceVersion) {
    putQueue(q);
    queueWritten(q.name(), resourceVersion);
  }

  /**
   * A queue as a status write needs it, read in one step.
   *
   * @param stateMissing whether nobody has written its {@code status.state} yet
   * @param resourceVersion the version on the server that {@code queue} is, or null if not known
   */
  record QueueForWrite(Queue queue, boolean stateMissing, String resourceVersion) {}

  /** The queue {@code name} as a status write needs it; null if the cache has no such queue. */
  synchronized QueueForWrite queueForWrite(String name) {
    Queue q = queues.get(name);
    return q == null
        ? null
        : new QueueForWrite(q, queuesWithoutState.contains(name), queueVersions.get(name));
  }

  private void putQueueLocked(Queue q) {
    Queue old = queues.put(q.name(), q);
    if (old == null || !old.withAllocated(q.allocated()).equals(q)) {
      work(); // new, or changed in more than what is allocated
    }
  }

  /** Whether nobody has written the queue's {@code status.state} yet (no Volcano controller). */
  synchronized boolean queueStateMissing(String name) {
    return queuesWithoutState.contains(name);
  }

  synchronized void removeQueue(String name) {
    queuesWithoutState.remove(name);
    queueVersions.remove(name);
    if (queues.remove(name) != null) {
      work();
    }
  }

  synchronized void putPriorityClass(PriorityClass pc, String preemptionPolicy) {
    priorityClasses.put(pc.name(), pc);
    if (preemptionPolicy == null || preemptionPolicy.isEmpty()) {
      preemptionPolicies.remove(pc.name());
    } else {
      preemptionPolicies.put(pc.name(), preemptionPolicy);
    }
    work();
  }

  synchronized void removePriorityClass(String name) {
    priorityClasses.remove(name);
    preemptionPolicies.remove(name);
    work();
  }

  synchronized void putPdb(PodDisruptionBudget b) {
    pdbs.put(b.metadata().key(), b);
    work();
  }

  synchronized void removePdb(String key) {
    pdbs.remove(key);
    work();
  }

  synchronized void putQuota(ResourceQuota q) {
    quotas.put(q.metadata().key(), q);
    work();
  }

  synchronized void removeQuota(String key) {
    quotas.remove(key);
    work();
  }

  synchronized void putNamespace(Namespace ns) {
    namespaces.put(ns.metadata().name(), ns);
    work();
  }

  synchronized void removeNamespace(String name) {
    namespaces.remove(name);
    work();
  }

  synchronized void putVolume(PersistentVolume v) {
    volumes.put(v.name(), v);
    work();
  }

  synchronized void removeVolume(String name) {
    volumes.remove(name);
    work();
  }

  synchronized PersistentVolume volume(String name) {
    return volumes.get(name);
  }

  synchronized void putClaim(PersistentVolumeClaim c) {
    claims.put(c.key(), c);
    work();
  }

  synchronized void removeClaim(String key) {
    claims.remove(key);
    work();
  }

  synchronized PersistentVolumeClaim claim(String key) {
    return claims.get(key);
  }

  synchronized void putStorageClass(StorageClass sc) {
    storageClasses.put(sc.name(), sc);
    work();
  }

  synchronized void removeStorageClass(String name) {
    storageClasses.remove(name);
    work();
  }

  synchronized void putCsiNode(CSINode n) {
    csiNodes.put(n.name(), n);
    work();
  }

  synchronized void removeCsiNode(String name) {
    csiNodes.remove(name);
    work();
  }

  /** Node name → usage as the metrics poller last read it (empty: none read). */
  public synchronized Map<String, NodeMetrics> nodeMetrics() {
    return metrics;
  }

  synchronized void setMetrics(Map<String, NodeMetrics> metrics) {
    this.metrics = Map.copyOf(metrics);
  }

  // ---- writer side ---------------------------------------------------------------------------

  synchronized Pod pod(String key) {
    return pods.get(key);
  }

  synchronized boolean hasNode(String name) {
    return nodes.containsKey(name);
  }

  synchronized Node node(String name) {
    return nodes.get(name);
  }

  /** A pod group that exists on the server (not an implicit one), or null. */
  synchronized PodGroup podGroup(String key) {
    return podGroups.get(key);
  }

  synchronized int[] podGroupCounts(String key) {
    int[] c = podGroupCounts.get(key);
    return c == null ? new int[3] : c.clone();
  }

  /** The queues that exist on the server, a copy. */
  synchronized List<Queue> queues() {
    return List.copyOf(queues.values());
  }

  /** A queue that exists on the server (not the implicit default), or null. */
  synchronized Queue queue(String name) {
    return queues.get(name);
  }

  private void endBindLocked(String podKey) {
    String node = bindsInFlight.remove(podKey);
    if (node != null) {
      Set<String> onNode = bindsInFlightByNode.get(node);
      onNode.remove(podKey);
      if (onNode.isEmpty()) {
        bindsInFlightByNode.remove(node);
      }
    }
  }

  /**
   * Shows {@code key} bound to {@code node} (the API server said so in its answer to a bind) until
   * the informer delivers the pod; ends the pod's bind in flight.
   */
  synchronized void assumeBound(String key, String node) {
    Pod p = pods.get(key);
    if (p == null || !p.nodeName().isEmpty()) {
      endBindLocked(key);
      return;
    }
    putPod(p.withStatus(node, p.phase(), p.nominatedNodeName(), p.conditions()));
  }

  /** What {@link #claimBind} found. */
  record BindClaim(boolean claimed, String overcommit) {
    static final BindClaim CLAIMED = new BindClaim(true, null);
    static final BindClaim IN_FLIGHT = new BindClaim(false, null);
  }

  /**
   * Marks a bind of {@code pod} to {@code node} as sent, unless one is already in flight for the
   * pod, or the node would then hold more than its allocatable of a resource it lists, counting
   * every pod the informers show on it (but finished ones) and every bind in flight to it: the
   * assume step of kube-scheduler's cache, a second line of defence against a decision made on a
   * stale view. The overcommit answer names the resources.
   */
  synchronized BindClaim claimBind(Pod pod, String node) {
    if (bindsInFlight.containsKey(pod.key())) {
      return BindClaim.IN_FLIGHT;
    }
    Node n = nodes.get(node);
    if (n != null) {
      String overcommit = overcommit(pod, n);
      if (overcommit != null) {
        return new BindClaim(false, overcommit);
      }
    }
    bindsInFlight.put(pod.key(), node);
    bindsInFlightByNode.computeIfAbsent(node, k -> new LinkedHashSet<>()).add(pod.key());
    return BindClaim.CLAIMED;
  }

  private String overcommit(Pod pod, Node node) {
    Resource used = Resource.empty();
    for (String key : podsByNode.getOrDefault(node.name(), Set.of())) {
      Pod p = pods.get(key);
      if (p != null && !p.key().equals(pod.key()) && occupies(p)) {
        used.add(Resource.requestOf(p));
      }
    }
    for (String key : bindsInFlightByNode.getOrDefault(node.name(), Set.of())) {
      Pod p = pods.get(key);
      if (p != null && p.nodeName().isEmpty()) {
        used.add(Resource.requestOf(p));
      }
    }
    Resource wanted = Resource.requestOf(pod);
    Resource allocatables = Resource.fromList(node.allocatable());
    List<String> over = new ArrayList<>();
    for (String name : new TreeSet<>(node.allocatable().keySet())) {
      double need = wanted.get(name);
      if (need <= 0) {
        continue;
      }
      double allocatable = allocatables.get(name);
      if (used.get(name) + need > allocatable + Resource.EPSILON) {
        over.add(
            name
                + " "
                + ResourceNames.quantity(name, used.get(name) + need)
                + " requested of "
                + ResourceNames.quantity(name, allocatable)
                + " allocatable ("
                + ResourceNames.quantity(name, used.get(name))
                + " by pods on the node or being bound to it)");
      }
    }
    return over.isEmpty()
        ? null
        : "node " + node.name() + " would exceed its allocatable: " + String.join("; ", over);
  }

  /** A pod that holds its node's resources: any phase but Succeeded and Failed. */
  private static boolean occupies(Pod p) {
    return !p.phase().equals("Succeeded") && !p.phase().equals("Failed");
  }

  synchronized void endBind(String podKey) {
    endBindLocked(podKey);
  }

  /** Marks an eviction as sent; false if one is already in flight for the pod. */
  synchronized boolean startEviction(String podKey, Instant now) {
    return evictionsInFlight.putIfAbsent(podKey, now) == null;
  }

  synchronized void endEviction(String podKey) {
    evictionsInFlight.remove(podKey);
  }

  // ---- sessions ------------------------------------------------------------------------------

  /**
   * The cluster as a session sees it: nodes in first-seen order; every pod of the scheduler names
   * and every pod on a node, with in-flight work shown and admission defaults applied; pod groups
   * (implicit ones added), queues (an open {@code default} if there is none) and the rest.
   */
  public synchronized ClusterSnapshot snapshot(Set<String> schedulerNames, Instant now) {
    if (!listing.isEmpty()) {
      // Checked under the lock every handler writes under: a session never sees part of a list.
      throw new IllegalStateException(
          "the cache is receiving the list of " + String.join(", ", listing));
    }
    Admission admission =
        new Admission(
            priorityClasses.values(), preemptionPolicies, ImplicitGroupNaming.CONTROLLER_UID);
    Map<String, PodGroup> groups = new LinkedHashMap<>(podGroups);
    List<Pod> visible = new ArrayList<>(pods.size());
    for (Map.Entry<String, Pod> e : pods.entrySet()) {
      Pod v = withOverlays(e.getKey(), e.getValue());
      boolean ours = schedulerNames.contains(v.schedulerName());
      if (!ours && v.nodeName().isEmpty()) {
        continue;
      }
      visible.add(admission.admit(v, ours, groups));
    }
    // Only a missing default queue is stood in for; root is left to the cluster's controllers.
    List<Queue> qs = List.copyOf(Admission.withDefaultQueues(List.copyOf(queues.values()), false));
    ClusterInfo info =
        new ClusterInfo(
            List.copyOf(priorityClasses.values()),
            List.copyOf(pdbs.values()),
            List.copyOf(quotas.values()),
            List.copyOf(namespaces.values()),
            metrics,
            Map.of(), // policies: the loop adds those of its watched directory
            new Storage(
                List.copyOf(volumes.values()),
                List.copyOf(claims.values()),
                List.copyOf(storageClasses.values()),
                List.copyOf(csiNodes.values())));
    return new ClusterSnapshot(
        List.copyOf(nodes.values()), visible, List.copyOf(groups.values()), qs, info, now);
  }

  /** {@code p} (whose key is {@code key}: the map's, with its hash already computed) as written. */
  private Pod withOverlays(String key, Pod p) {
    String node = bindsInFlight.isEmpty() ? null : bindsInFlight.get(key);
    if (node != null && p.nodeName().isEmpty()) {
      p = p.withStatus(node, p.phase(), p.nominatedNodeName(), p.conditions());
    }
    Instant evicted = evictionsInFlight.isEmpty() ? null : evictionsInFlight.get(key);
    if (evicted != null && p.metadata().deletionTimestamp() == null) {
      p = PodCopies.withDeletionTimestamp(p, evicted);
    }
    return p;
  }
}
