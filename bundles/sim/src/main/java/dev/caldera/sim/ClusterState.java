package dev.caldera.sim;

import dev.caldera.api.model.Namespace;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodDisruptionBudget;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.PriorityClass;
import dev.caldera.api.model.Queue;
import dev.caldera.api.model.ResourceQuota;
import dev.caldera.api.model.Storage;
import java.util.List;

/**
 * Every object of a simulated cluster, each list in manifest order (objects the simulator added,
 * such as implicit pod groups, come after the ones of the file).
 *
 * @param storage PersistentVolumes, PersistentVolumeClaims, StorageClasses and CSINodes
 */
public record ClusterState(
    List<Node> nodes,
    List<Pod> pods,
    List<PodGroup> podGroups,
    List<Queue> queues,
    List<PriorityClass> priorityClasses,
    List<PodDisruptionBudget> podDisruptionBudgets,
    List<ResourceQuota> resourceQuotas,
    List<Namespace> namespaces,
    Storage storage) {

  /** A cluster without storage objects. */
  public ClusterState(
      List<Node> nodes,
      List<Pod> pods,
      List<PodGroup> podGroups,
      List<Queue> queues,
      List<PriorityClass> priorityClasses,
      List<PodDisruptionBudget> podDisruptionBudgets,
      List<ResourceQuota> resourceQuotas,
      List<Namespace> namespaces) {
    this(
        nodes,
        pods,
        podGroups,
        queues,
        priorityClasses,
        podDisruptionBudgets,
        resourceQuotas,
        namespaces,
        null);
  }

  public ClusterState {
    nodes = nodes == null ? List.of() : List.copyOf(nodes);
    pods = pods == null ? List.of() : List.copyOf(pods);
    podGroups = podGroups == null ? List.of() : List.copyOf(podGroups);
    queues = queues == null ? List.of() : List.copyOf(queues);
    priorityClasses = priorityClasses == null ? List.of() : List.copyOf(priorityClasses);
    podDisruptionBudgets =
        podDisruptionBudgets == null ? List.of() : List.copyOf(podDisruptionBudgets);
    resourceQuotas = resourceQuotas == null ? List.of() : List.copyOf(resourceQuotas);
    namespaces = namespaces == null ? List.of() : List.copyOf(namespaces);
    storage = storage == null ? Storage.EMPTY : storage;
  }
}
