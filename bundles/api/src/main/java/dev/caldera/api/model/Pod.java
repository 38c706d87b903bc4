package dev.caldera.api.model;

import dev.caldera.api.resource.Quantity;
import java.util.List;
import java.util.Map;

/**
 * The parts of a Kubernetes Pod a scheduler reads. Immutable; the scheduler's own state about a pod
 * lives in its task.
 *
 * @param priority {@code spec.priority}, or null when admission did not fill it
 * @param phase Pending, Running, Succeeded, Failed or Unknown
 * @param volumes {@code spec.volumes}, as far as scheduling reads them
 */
public record Pod(
    ObjectMeta metadata,
    String schedulerName,
    String nodeName,
    Integer priority,
    String priorityClassName,
    String preemptionPolicy,
    Map<String, String> nodeSelector,
    NodeAffinity nodeAffinity,
    PodAffinity podAffinity,
    PodAffinity podAntiAffinity,
    List<Toleration> tolerations,
    List<Container> containers,
    List<Container> initContainers,
    List<TopologySpreadConstraint> topologySpreadConstraints,
    Map<String, Quantity> overhead,
    List<String> schedulingGates,
    String phase,
    String nominatedNodeName,
    List<PodCondition> conditions,
    List<PodVolume> volumes) {

  public Pod {
    schedulerName =
        schedulerName == null || schedulerName.isEmpty() ? "default-scheduler" : schedulerName;
    nodeName = nodeName == null ? "" : nodeName;
    priorityClassName = priorityClassName == null ? "" : priorityClassName;
    preemptionPolicy = preemptionPolicy == null ? "" : preemptionPolicy;
    nodeSelector = nodeSelector == null ? Map.of() : Map.copyOf(nodeSelector);
    tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
    containers = containers == null ? List.of() : List.copyOf(containers);
    initContainers = initContainers == null ? List.of() : List.copyOf(initContainers);
    topologySpreadConstraints =
        topologySpreadConstraints == null ? List.of() : List.copyOf(topologySpreadConstraints);
    overhead = overhead == null ? Map.of() : Map.copyOf(overhead);
    schedulingGates = schedulingGates == null ? List.of() : List.copyOf(schedulingGates);
    phase = phase == null || phase.isEmpty() ? "Pending" : phase;
    nominatedNodeName = nominatedNodeName == null ? "" : nominatedNodeName;
    conditions = conditions == null ? List.of() : List.copyOf(conditions);
    volumes = volumes == null ? List.of() : List.copyOf(volumes);
  }

  /** A pod without volumes. */
  public Pod(
      ObjectMeta metadata,
      String schedulerName,
      String nodeName,
      Integer priority,
      String priorityClassName,
      String preemptionPolicy,
      Map<String, String> nodeSelector,
      NodeAffinity nodeAffinity,
      PodAffinity podAffinity,
      PodAffinity podAntiAffinity,
      List<Toleration> tolerations,
      List<Container> containers,
      List<Container> initContainers,
      List<TopologySpreadConstraint> topologySpreadConstraints,
      Map<String, Quantity> overhead,
      List<String> schedulingGates,
      String phase,
      String nominatedNodeName,
      List<PodCondition> conditions) {
    this(
        metadata,
        schedulerName,
        nodeName,
        priority,
        priorityClassName,
        preemptionPolicy,
        nodeSelector,
        nodeAffinity,
        podAffinity,
        podAntiAffinity,
        tolerations,
        containers,
        initContainers,
        topologySpreadConstraints,
        overhead,
        schedulingGates,
        phase,
        nominatedNodeName,
        conditions,
        null);
  }

  /** This pod with another placement and status (what a cluster changes as it runs the pod). */
  public Pod withStatus(
      String nodeName, String phase, String nominatedNodeName, List<PodCondition> conditions) {
    return new Pod(
        metadata,
        schedulerName,
        nodeName,
        priority,
        priorityClassName,
        preemptionPolicy,
        nodeSelector,
        nodeAffinity,
        podAffinity,
        podAntiAffinity,
        tolerations,
        containers,
        initContainers,
        topologySpreadConstraints,
        overhead,
        schedulingGates,
        phase,
        nominatedNodeName,
        conditions,
        volumes);
  }

  /** {@code namespace/name}. */
  public String key() {
    return metadata.key();
  }

  /** The pod's name. */
  public String name() {
    return metadata.name();
  }

  /** The pod's namespace. */
  public String namespace() {
    return metadata.namespace();
  }
}
