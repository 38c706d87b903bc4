package dev.caldera.api.model;

import java.util.List;

/**
 * A pod topology spread constraint. {@code whenUnsatisfiable} is DoNotSchedule or ScheduleAnyway;
 * the policies are Honor or Ignore (null means the Kubernetes default: affinity Honor, taints
 * Ignore).
 */
public record TopologySpreadConstraint(
    int maxSkew,
    String topologyKey,
    String whenUnsatisfiable,
    LabelSelector labelSelector,
    Integer minDomains,
    String nodeAffinityPolicy,
    String nodeTaintsPolicy,
    List<String> matchLabelKeys) {
  public TopologySpreadConstraint {
    matchLabelKeys = matchLabelKeys == null ? List.of() : List.copyOf(matchLabelKeys);
  }
}
