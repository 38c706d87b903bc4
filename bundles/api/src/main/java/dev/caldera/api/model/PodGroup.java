package dev.caldera.api.model;

import dev.caldera.api.resource.Quantity;
import java.util.List;
import java.util.Map;

/**
 * A Volcano PodGroup.
 *
 * @param minResources null when unset (the enqueue action then admits without asking plugins)
 * @param phase Pending, Inqueue, Running, Unknown or Completed
 */
public record PodGroup(
    ObjectMeta metadata,
    String queue,
    int minMember,
    Map<String, Integer> minTaskMember,
    Map<String, Quantity> minResources,
    String priorityClassName,
    String phase,
    List<PodCondition> conditions) {
  public PodGroup {
    queue = queue == null ? "" : queue;
    minTaskMember = minTaskMember == null ? Map.of() : Map.copyOf(minTaskMember);
    minResources = minResources == null ? null : Map.copyOf(minResources);
    priorityClassName = priorityClassName == null ? "" : priorityClassName;
    phase = phase == null || phase.isEmpty() ? "Pending" : phase;
    conditions = conditions == null ? List.of() : List.copyOf(conditions);
  }

  /** This pod group with another status phase and conditions. */
  public PodGroup withStatus(String phase, List<PodCondition> conditions) {
    return new PodGroup(
        metadata,
        queue,
        minMember,
        minTaskMember,
        minResources,
        priorityClassName,
        phase,
        conditions);
  }

  /** {@code namespace/name}: Volcano's job id. */
  public String key() {
    return metadata.key();
  }
}
