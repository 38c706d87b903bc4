package dev.caldera.plugins.predicates;

import dev.caldera.api.extension.Status;
import dev.caldera.api.extension.VolumeBinding;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.CSINode;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.PersistentVolume;
import dev.caldera.api.model.PersistentVolumeClaim;
import dev.caldera.api.model.PodVolume;
import dev.caldera.api.model.Storage;
import dev.caldera.api.model.StorageClass;
import dev.caldera.api.placement.NodeSelection;
import dev.caldera.api.resource.Quantity;
import dev.caldera.support.placement.NodeSelections;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube-scheduler's volume filters over one session's storage objects: VolumeBinding (bound claims'
 * volume node affinity, unbound Immediate claims, WaitForFirstConsumer claims matched to the
 * smallest available volume or provisioned where the class's topology allows), VolumeZone,
 * VolumeRestrictions (inline disk conflicts, ReadWriteOncePod) and NodeVolumeLimits (CSINode attach
 * limits).
 *
 * <p>Assumptions: the volumes chosen for an allocated or pipelined task are assumed until the task
 * is deallocated (its statement discarded), so no other task can take the same volume and every
 * later decision sees the claim as settled.
 *
 * <p>Threads: {@link #filter} may run concurrently for different nodes; {@link #assume} and {@link
 * #release} run on the scheduling thread between predicate rounds.
 */
final class VolumeRules {

  static final String UNBOUND_IMMEDIATE = "pod has unbound immediate PersistentVolumeClaims";
  static final String BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
  static final String NODE_CONFLICT = "node(s) had volume node affinity conflict";
  static final String ZONE_CONFLICT = "node(s) had no available volume zone";
  static final String DISK_CONFLICT = "node(s) had no available disk";
  static final String RWOP_CONFLICT =
      "node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode";
  static final String MAX_VOLUME_COUNT = "node(s) exceed max volume count";

  private static final Status BIND_CONFLICT_STATUS = Status.unresolvable(BIND_CONFLICT);
  private static final Status NODE_CONFLICT_STATUS = Status.unresolvable(NODE_CONFLICT);
  private static final Status ZONE_CONFLICT_STATUS = Status.unresolvable(ZONE_CONFLICT);
  private static final Status DISK_CONFLICT_STATUS = Status.unschedulable(DISK_CONFLICT);
  private static final Status RWOP_CONFLICT_STATUS = Status.unschedulable(RWOP_CONFLICT);
  private static final Status MAX_VOLUME_COUNT_STATUS = Status.unschedulable(MAX_VOLUME_COUNT);

  /** The zone and region labels VolumeZone compares, beta label → GA label. */
  private static final Map<String, String> ZONE_LABELS =
      Map.of(
          "failure-domain.beta.kubernetes.io/zone", "topology.kubernetes.io/zone",
          "failure-domain.beta.kubernetes.io/region", "topology.kubernetes.io/region",
          "topology.kubernetes.io/zone", "topology.kubernetes.io/zone",
          "topology.kubernetes.io/region", "topology.kubernetes.io/region");

  private static final Comparator<PersistentVolume> SMALLEST_FIRST =
      Comparator.comparing((PersistentVolume v) -> bytes(v.capacity()))
          .thenComparing(PersistentVolume::name);

  private final Storage storage;
  private final PredicatesArguments args;

  /** Class name → its volumes, smallest first, then by name. */
  private final Map<String, List<PersistentVolume>> volumesByClass = new HashMap<>();

  private final Map<String, NodeSelection> affinities = new ConcurrentHashMap<>();

  /** Volume name → the claim it is assumed for in this session. */
  private final Map<String, String> assumedVolumes = new ConcurrentHashMap<>();

  /** Claim → what this session assumed for it. */
  private final Map<String, Assumed> assumedClaims = new ConcurrentHashMap<>();

  /** Task UID → the decisions assumed for it, in claim order. */
  private final Map<String, List<VolumeBinding>> byTask = new ConcurrentHashMap<>();

  /** Claim → the UIDs of the placed tasks that use it (for ReadWriteOncePod). */
  private final Map<String, Set<String>> claimUsers = new ConcurrentHashMap<>();

  private record Assumed(String volume, String node, String taskUid) {}

  VolumeRules(Storage storage, PredicatesArguments args) {
    this.storage = storage;
    this.args = args;
    for (PersistentVolume v : storage.volumes()) {
      volumesByClass.computeIfAbsent(v.storageClassName(), k -> new ArrayList<>()).add(v);
    }
    volumesByClass.values().forEach(l -> l.sort(SMALLEST_FIRST));
  }

  /** Counts the claims of a task already placed in the snapshot (ReadWriteOncePod users). */
  void countPlaced(TaskInfo task, PodClaims claims) {
    for (String claim : claims.claims) {
      claimUsers.computeIfAbsent(claim, k -> ConcurrentHashMap.newKeySet()).add(task.uid());
    }
  }

  // ------------------------------------------------------------ pre-filter

  /**
   * The checks that do not depend on the node: every claim exists and is not being deleted, a bound
   * claim's volume exists and is not held by another claim ({@link Storage#namesVolumeOfAnother}:
   * such a claim is pending, hence an unbound immediate claim), an unbound claim's class exists and
   * binds on first consumer, and no other pod uses a ReadWriteOncePod claim. Null when they pass.
   */
  Status preFilter(TaskInfo task, PodClaims claims) {
    boolean unboundImmediate = false;
    for (String key : claims.claims) {
      PersistentVolumeClaim pvc = storage.claim(key);
      if (pvc == null) {
        return Status.unresolvable("persistentvolumeclaim \"" + key + "\" not found");
      }
      if (pvc.metadata().deletionTimestamp() != null) {
        return Status.unresolvable("persistentvolumeclaim \"" + key + "\" is being deleted");
      }
      String volume = settledVolume(pvc);
      if (volume != null) {
        if (!volume.isEmpty() && storage.volume(volume) == null) {
          return Status.unresolvable(
              "persistentvolume \"" + volume + "\" of claim \"" + key + "\" not found");
        }
        // Named by another claim's volume: Kubernetes keeps this claim pending, i.e. unbound.
        unboundImmediate |= storage.namesVolumeOfAnother(pvc);
        continue;
      }
      String className = pvc.storageClassName();
      if (className.isEmpty()) {
        unboundImmediate = true;
        continue;
      }
      StorageClass sc = storage.storageClass(className);
      if (sc == null) {
        return Status.unresolvable(
            "storageclass \"" + className + "\" of claim \"" + key + "\" not found");
      }
      if (!sc.waitForFirstConsumer()) {
        unboundImmediate = true;
      }
    }
    if (unboundImmediate && args.volumeBinding()) {
      return Status.unresolvable(UNBOUND_IMMEDIATE);
    }
    return null;
  }

  // ------------------------------------------------------------ filter

  /**
   * The node-dependent checks in kube-scheduler's order: disk conflicts and ReadWriteOncePod,
   * attach limits, volume binding, volume zone. Null when the node passes.
   *
   * @param others the pods counted on the node, except {@code task}
   */
  Status filter(TaskInfo task, PodClaims claims, Node node, List<TaskInfo> others) {
    for (PodVolume disk : claims.disks) {
      for (TaskInfo other : others) {
        if (other != task && conflictsWith(disk, other)) {
          return DISK_CONFLICT_STATUS;
        }
      }
    }
    if (claims.claims.length == 0) {
      return null;
    }
    if (readWriteOncePodInUse(task, claims)) {
      return RWOP_CONFLICT_STATUS;
    }
    if (args.nodeVolumeLimits() && exceedsAttachLimit(task, claims, node, others)) {
      return MAX_VOLUME_COUNT_STATUS;
    }
    if (args.volumeBinding()) {
      Plan plan = plan(claims, node);
      if (plan.failure != null) {
        return plan.failure;
      }
    }
    if (args.volumeZone() && !zonesMatch(claims, node)) {
      return ZONE_CONFLICT_STATUS;
    }
    return null;
  }

  private static boolean conflictsWith(PodVolume disk, TaskInfo other) {
    for (PodVolume v : other.pod().volumes()) {
      if (PodClaims.conflict(disk, v)) {
        return true;
      }
    }
    return false;
  }

  private boolean readWriteOncePodInUse(TaskInfo task, PodClaims claims) {
    for (String key : claims.claims) {
      PersistentVolumeClaim pvc = storage.claim(key);
      if (pvc == null || !pvc.accessModes().contains(PersistentVolumeClaim.READ_WRITE_ONCE_POD)) {
        continue;
      }
      Set<String> users = claimUsers.get(key);
      if (users != null) {
        for (String uid : users) {
          if (!uid.equals(task.uid())) {
            return true;
          }
        }
      }
    }
    return false;
  }

  // ------------------------------------------------------------ attach limits

  private boolean exceedsAttachLimit(
      TaskInfo task, PodClaims claims, Node node, List<TaskInfo> others) {
    CSINode csiNode = storage.csiNode(node.name());
    if (csiNode == null || csiNode.attachLimits().isEmpty()) {
      return false;
    }
    Map<String, String> wanted = new LinkedHashMap<>();
    for (String key : claims.claims) {
      csiVolume(key, wanted);
    }
    boolean limited = false;
    for (String driver : wanted.values()) {
      limited |= csiNode.attachLimits().containsKey(driver);
    }
    if (!limited) {
      return false;
    }
    Map<String, String> attached = new HashMap<>();
    for (TaskInfo other : others) {
      if (other == task) {
        continue;
      }
      for (PodVolume v : other.pod().volumes()) {
        if (v.hasClaim()) {
          csiVolume(other.namespace() + "/" + v.claimName(), attached);
        }
      }
    }
    Map<String, Integer> attachedCount = new HashMap<>();
    attached.values().forEach(d -> attachedCount.merge(d, 1, Integer::sum));
    Map<String, Integer> newCount = new HashMap<>();
    wanted.forEach(
        (unique, driver) -> {
          if (!attached.containsKey(unique)) {
            newCount.merge(driver, 1, Integer::sum);
          }
        });
    for (Map.Entry<String, Integer> e : newCount.entrySet()) {
      Integer limit = csiNode.attachLimits().get(e.getKey());
      if (limit != null && attachedCount.getOrDefault(e.getKey(), 0) + e.getValue() > limit) {
        return true;
      }
    }
    return false;
  }

  /**
   * Adds the claim's CSI volume as unique name → driver: a settled claim's volume by its driver and
   * handle, an unsettled one by its class's provisioner and the claim. Claims that cannot be
   * resolved count nothing.
   */
  private void csiVolume(String claimKey, Map<String, String> out) {
    PersistentVolumeClaim pvc = storage.claim(claimKey);
    if (pvc == null) {
      return;
    }
    String volumeName = settledVolume(pvc);
    if (volumeName != null && !volumeName.isEmpty()) {
      PersistentVolume pv = storage.volume(volumeName);
      if (pv != null && !pv.csiDriver().isEmpty()) {
        String handle = pv.csiVolumeHandle().isEmpty() ? pv.name() : pv.csiVolumeHandle();
        out.put(pv.csiDriver() + "/" + handle, pv.csiDriver());
      }
      return;
    }
    StorageClass sc = storage.storageClass(pvc.storageClassName());
    if (sc != null && sc.canProvision()) {
      out.put(sc.provisioner() + "/" + claimKey, sc.provisioner());
    }
  }

  // ------------------------------------------------------------ binding

  /** What binding the pod's claims on one node takes, or why it cannot. */
  private record Plan(List<VolumeBinding> bindings, Status failure) {}

  /**
   * kube-scheduler's {@code FindPodVolumes}: settled claims need their volume's node affinity to
   * match; claims with a selected node need that node; the others take the smallest matching
   * available volume (smallest claims first) or are provisioned where the class allows.
   */
  private Plan plan(PodClaims claims, Node node) {
    List<PersistentVolumeClaim> toMatch = new ArrayList<>();
    List<PersistentVolumeClaim> toProvision = new ArrayList<>();
    boolean nodeConflict = false;
    boolean bindConflict = false;
    for (String key : claims.claims) {
      PersistentVolumeClaim pvc = storage.claim(key);
      if (pvc == null) {
        return new Plan(
            null, Status.unresolvable("persistentvolumeclaim \"" + key + "\" not found"));
      }
      String volumeName = settledVolume(pvc);
      if (volumeName != null) {
        if (volumeName.isEmpty()) {
          Assumed a = assumedClaims.get(key);
          bindConflict |= a != null && !a.node.equals(node.name());
          continue;
        }
        PersistentVolume pv = storage.volume(volumeName);
        if (pv == null) {
          return new Plan(
              null,
              Status.unresolvable(
                  "persistentvolume \"" + volumeName + "\" of claim \"" + key + "\" not found"));
        }
        if (storage.namesVolumeOfAnother(pvc)) {
          return new Plan(null, Status.unresolvable(UNBOUND_IMMEDIATE));
        }
        nodeConflict |= !affinityMatches(pv, node);
        continue;
      }
      String selected = pvc.selectedNode();
      if (!selected.isEmpty()) {
        if (!selected.equals(node.name())) {
          bindConflict = true;
        } else {
          toProvision.add(pvc);
        }
        continue;
      }
      if (!toMatch.contains(pvc)) {
        toMatch.add(pvc);
      }
    }
    if (nodeConflict || bindConflict) {
      List<String> reasons = new ArrayList<>();
      if (nodeConflict) {
        reasons.add(NODE_CONFLICT);
      }
      if (bindConflict) {
        reasons.add(BIND_CONFLICT);
      }
      return new Plan(null, new Status(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, reasons));
    }
    List<VolumeBinding> bindings = new ArrayList<>();
    toMatch.sort(
        Comparator.comparing((PersistentVolumeClaim c) -> bytes(c.request()))
            .thenComparing(PersistentVolumeClaim::key));
    Set<String> chosen = new HashSet<>();
    for (PersistentVolumeClaim pvc : toMatch) {
      PersistentVolume pv = matchingVolume(pvc, node, chosen);
      if (pv == null) {
        toProvision.add(pvc);
      } else {
        chosen.add(pv.name());
        if (!isBoundToClaim(pv, pvc) || !"Bound".equals(pv.phase())) {
          bindings.add(VolumeBinding.toVolume(pvc.key(), pv.name()));
        }
      }
    }
    for (PersistentVolumeClaim pvc : toProvision) {
      StorageClass sc = storage.storageClass(pvc.storageClassName());
      if (sc == null
          || !sc.canProvision()
          || (!sc.allowedTopologies().isEmpty() && !topologyAllows(sc, node))) {
        return new Plan(null, BIND_CONFLICT_STATUS);
      }
      if (pvc.selectedNode().isEmpty()) {
        bindings.add(VolumeBinding.provision(pvc.key()));
      }
    }
    return new Plan(bindings, null);
  }

  /**
   * {@code FindMatchingVolume}: a volume already reserved for the claim wins if its node affinity
   * matches; else the smallest Available volume of the claim's class that is not reserved or
   * assumed for another claim, has the capacity, volume mode and access modes, matches the claim's
   * selector and the node. Ties go to the name.
   */
  private PersistentVolume matchingVolume(
      PersistentVolumeClaim pvc, Node node, Set<String> excluded) {
    BigDecimal requested = bytes(pvc.request());
    PersistentVolume smallest = null;
    for (PersistentVolume pv : volumesByClass.getOrDefault(pvc.storageClassName(), List.of())) {
      if (excluded.contains(pv.name())) {
        continue;
      }
      String assumedFor = assumedVolumes.get(pv.name());
      if (assumedFor != null && !assumedFor.equals(pvc.key())) {
        continue;
      }
      if (pv.claimRef() != null && !isBoundToClaim(pv, pvc)) {
        continue;
      }
      if (bytes(pv.capacity()).compareTo(requested) < 0
          || !pv.volumeMode().equals(pvc.volumeMode())
          || pv.metadata().deletionTimestamp() != null) {
        continue;
      }
      boolean affinityValid = affinityMatches(pv, node);
      if (isBoundToClaim(pv, pvc)) {
        return affinityValid ? pv : null;
      }
      if (!"Available".equals(pv.phase())
          || (pvc.selector() != null && !pvc.selector().matches(pv.metadata().labels()))
          || !affinityValid
          || !pv.accessModes().containsAll(pvc.accessModes())) {
        continue;
      }
      if (smallest == null) {
        smallest = pv; // the list is sorted smallest first
      }
    }
    return smallest;
  }

  private static boolean isBoundToClaim(PersistentVolume pv, PersistentVolumeClaim pvc) {
    PersistentVolume.ClaimRef ref = pv.claimRef();
    return ref != null
        && ref.name().equals(pvc.name())
        && ref.namespace().equals(pvc.namespace())
        && (ref.uid().isEmpty() || ref.uid().equals(pvc.metadata().uid()));
  }

  private boolean affinityMatches(PersistentVolume pv, Node node) {
    if (pv.nodeAffinity() == null) {
      return true;
    }
    return affinities
        .computeIfAbsent("pv:" + pv.name(), k -> NodeSelections.ofTerms(pv.nodeAffinity()))
        .matches(node);
  }

  private boolean topologyAllows(StorageClass sc, Node node) {
    return affinities
        .computeIfAbsent("sc:" + sc.name(), k -> NodeSelections.ofTerms(sc.allowedTopologies()))
        .matches(node);
  }

  /**
   * The volume a claim is settled on: its {@code spec.volumeName}, else the volume this session
   * assumed for it, empty when the session assumed a provisioning; null when unsettled.
   */
  private String settledVolume(PersistentVolumeClaim pvc) {
    if (pvc.bound()) {
      return pvc.volumeName();
    }
    Assumed a = assumedClaims.get(pvc.key());
    return a == null ? null : a.volume;
  }

  // ------------------------------------------------------------ zone

  private boolean zonesMatch(PodClaims claims, Node node) {
    Map<String, String> nodeLabels = node.metadata().labels();
    boolean nodeHasZone = false;
    for (String k : ZONE_LABELS.keySet()) {
      nodeHasZone |= nodeLabels.containsKey(k);
    }
    if (!nodeHasZone) {
      return true;
    }
    for (String key : claims.claims) {
      PersistentVolumeClaim pvc = storage.claim(key);
      String volumeName = pvc == null ? null : settledVolume(pvc);
      PersistentVolume pv =
          volumeName == null || volumeName.isEmpty() ? null : storage.volume(volumeName);
      if (pv == null) {
        continue;
      }
      for (Map.Entry<String, String> label : pv.metadata().labels().entrySet()) {
        String ga = ZONE_LABELS.get(label.getKey());
        if (ga == null) {
          continue;
        }
        String v = nodeLabels.get(label.getKey());
        if (v == null) {
          v = nodeLabels.get(ga);
        }
        if (v == null || !List.of(label.getValue().split("__")).contains(v)) {
          return false;
        }
      }
    }
    return true;
  }

  // ------------------------------------------------------------ assume and release

  /**
   * Assumes the volumes of a task just allocated or pipelined to its node; a task whose pod is
   * already placed only counts as a claim user.
   *
   * @return null when assumed, else why the node no longer fits (the operation is rolled back)
   */
  Status assume(TaskInfo task, PodClaims claims, Node node) {
    if (claims.claims.length == 0) {
      return null;
    }
    if (task.pod().nodeName().isEmpty() && args.volumeBinding()) {
      Plan plan = plan(claims, node);
      if (plan.failure != null) {
        return plan.failure;
      }
      for (VolumeBinding b : plan.bindings) {
        assumedClaims.put(b.claim(), new Assumed(b.volume(), node.name(), task.uid()));
        if (!b.provision()) {
          assumedVolumes.put(b.volume(), b.claim());
        }
      }
      if (!plan.bindings.isEmpty()) {
        byTask.put(task.uid(), List.copyOf(plan.bindings));
      }
    }
    countPlaced(task, claims);
    return null;
  }

  /** Releases what was assumed for the task (its statement was discarded, or it was evicted). */
  void release(TaskInfo task, PodClaims claims) {
    List<VolumeBinding> bindings = byTask.remove(task.uid());
    if (bindings != null) {
      for (VolumeBinding b : bindings) {
        assumedClaims.remove(b.claim());
        if (!b.provision()) {
          assumedVolumes.remove(b.volume());
        }
      }
    }
    for (String claim : claims.claims) {
      Set<String> users = claimUsers.get(claim);
      if (users != null) {
        users.remove(task.uid());
      }
    }
  }

  /** The decisions assumed for the task, for its bind. */
  List<VolumeBinding> bindings(TaskInfo task) {
    return byTask.getOrDefault(task.uid(), List.of());
  }

  private static BigDecimal bytes(Quantity q) {
    return q == null ? BigDecimal.ZERO : q.amount();
  }
}
