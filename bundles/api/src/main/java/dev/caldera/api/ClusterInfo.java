package dev.caldera.api;

import dev.caldera.api.model.Namespace;
import dev.caldera.api.model.NodeMetrics;
import dev.caldera.api.model.PodDisruptionBudget;
import dev.caldera.api.model.PriorityClass;
import dev.caldera.api.model.ResourceQuota;
import dev.caldera.api.model.Storage;
import java.util.List;
import java.util.Map;

/**
 * The rest of a session's snapshot: what some plugins read besides nodes, jobs and queues.
 *
 * @param nodeMetrics node name → real usage
 * @param policies policy file name (e.g. {@code tidal.policy}) → source text: the reclaim policies
 *     the cluster source found (a watched directory, a ConfigMap, a scenario's {@code policies:})
 * @param storage PersistentVolumes, PersistentVolumeClaims, StorageClasses and CSINodes
 */
public record ClusterInfo(
    List<PriorityClass> priorityClasses,
    List<PodDisruptionBudget> podDisruptionBudgets,
    List<ResourceQuota> resourceQuotas,
    List<Namespace> namespaces,
    Map<String, NodeMetrics> nodeMetrics,
    Map<String, String> policies,
    Storage storage) {

  /** Cluster information without policy sources. */
  public ClusterInfo(
      List<PriorityClass> priorityClasses,
      List<PodDisruptionBudget> podDisruptionBudgets,
      List<ResourceQuota> resourceQuotas,
      List<Namespace> namespaces,
      Map<String, NodeMetrics> nodeMetrics) {
    this(priorityClasses, podDisruptionBudgets, resourceQuotas, namespaces, nodeMetrics, null);
  }

  /** Cluster information without storage objects. */
  public ClusterInfo(
      List<PriorityClass> priorityClasses,
      List<PodDisruptionBudget> podDisruptionBudgets,
      List<ResourceQuota> resourceQuotas,
      List<Namespace> namespaces,
      Map<String, NodeMetrics> nodeMetrics,
      Map<String, String> policies) {
    this(
        priorityClasses,
        podDisruptionBudgets,
        resourceQuotas,
        namespaces,
        nodeMetrics,
        policies,
        null);
  }

  /** This information with other storage objects. */
  public ClusterInfo withStorage(Storage storage) {
    return new ClusterInfo(
        priorityClasses,
        podDisruptionBudgets,
        resourceQuotas,
        namespaces,
        nodeMetrics,
        policies,
        storage);
  }

  public ClusterInfo {
    priorityClasses = priorityClasses == null ? List.of() : List.copyOf(priorityClasses);
    podDisruptionBudgets =
        podDisruptionBudgets == null ? List.of() : List.copyOf(podDisruptionBudgets);
    resourceQuotas = resourceQuotas == null ? List.of() : List.copyOf(resourceQuotas);
    namespaces = namespaces == null ? List.of() : List.copyOf(namespaces);
    nodeMetrics = nodeMetrics == null ? Map.of() : Map.copyOf(nodeMetrics);
    policies =
        policies == null
            ? Map.of()
            : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(policies));
    storage = storage == null ? Storage.EMPTY : storage;
  }
}
