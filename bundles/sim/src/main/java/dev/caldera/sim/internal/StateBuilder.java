package dev.caldera.sim.internal;

import dev.caldera.admission.Admission;
import dev.caldera.api.model.CSINode;
import dev.caldera.api.model.Namespace;
import dev.caldera.api.model.Node;
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
import dev.caldera.sim.ClusterState;
import dev.caldera.sim.EmbeddedCluster;
import dev.caldera.sim.ScenarioException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The objects of a manifest while they are read, as written: nothing here admits them (that is the
 * {@link EmbeddedCluster}'s snapshot), but what admitting them needs is kept ({@link #rules}).
 */
public final class StateBuilder {

  final List<Node> nodes = new ArrayList<>();
  final List<Pod> pods = new ArrayList<>();
  final List<PodGroup> podGroups = new ArrayList<>();
  final List<Queue> queues = new ArrayList<>();
  final List<PriorityClass> priorityClasses = new ArrayList<>();
  final List<PodDisruptionBudget> pdbs = new ArrayList<>();
  final List<ResourceQuota> quotas = new ArrayList<>();
  final List<Namespace> namespaces = new ArrayList<>();
  final List<PersistentVolume> volumes = new ArrayList<>();
  final List<PersistentVolumeClaim> claims = new ArrayList<>();
  final List<StorageClass> storageClasses = new ArrayList<>();
  final List<CSINode> csiNodes = new ArrayList<>();

  /** PriorityClass name → its {@code preemptionPolicy}, which admission copies into pods. */
  final Map<String, String> preemptionPolicies = new HashMap<>();

  /** Pod key → where the pod was read, for messages about it. */
  final Map<String, Fields> podFields = new HashMap<>();

  /** Adds every object {@code other} read, after this one's (several manifest files). */
  public void addAll(StateBuilder other) {
    nodes.addAll(other.nodes);
    pods.addAll(other.pods);
    podGroups.addAll(other.podGroups);
    queues.addAll(other.queues);
    priorityClasses.addAll(other.priorityClasses);
    pdbs.addAll(other.pdbs);
    quotas.addAll(other.quotas);
    namespaces.addAll(other.namespaces);
    volumes.addAll(other.volumes);
    claims.addAll(other.claims);
    storageClasses.addAll(other.storageClasses);
    csiNodes.addAll(other.csiNodes);
    preemptionPolicies.putAll(other.preemptionPolicies);
    podFields.putAll(other.podFields);
  }

  /**
   * The objects as written, once the scenario's own rule holds: a pod naming a pod group names one
   * that exists.
   *
   * @throws ScenarioException naming the pod and the group when a pod names a pod group that does
   *     not exist
   */
  public ClusterState checked() throws ScenarioException {
    Set<String> groups = new HashSet<>();
    for (PodGroup pg : podGroups) {
      groups.add(pg.key());
    }
    for (Pod pod : pods) {
      String group = Admission.groupName(pod);
      if (group != null && !groups.contains(pod.namespace() + "/" + group)) {
        throw podFields
            .get(pod.key())
            .error(
                "metadata.annotations." + Admission.GROUP_ANNOTATION,
                "pod group " + pod.namespace() + "/" + group + " does not exist");
      }
    }
    return build();
  }

  /**
   * What admitting these objects needs beyond them.
   *
   * @param hierarchical whether the capacity plugin runs with {@code enableHierarchy}
   */
  public EmbeddedCluster.Rules rules(boolean hierarchical) {
    return new EmbeddedCluster.Rules(preemptionPolicies, hierarchical);
  }

  /** The state as it is now. */
  public ClusterState build() {
    return new ClusterState(
        nodes,
        pods,
        podGroups,
        queues,
        priorityClasses,
        pdbs,
        quotas,
        namespaces,
        new Storage(volumes, claims, storageClasses, csiNodes));
  }
}
