package dev.caldera.api.model;

import dev.caldera.api.resource.Quantity;
import java.util.List;
import java.util.Map;

/** The parts of a Kubernetes Node a scheduler reads. */
public record Node(
    ObjectMeta metadata,
    boolean unschedulable,
    List<Taint> taints,
    Map<String, Quantity> allocatable,
    Map<String, Quantity> capacity,
    List<ContainerImage> images) {
  public Node {
    taints = taints == null ? List.of() : List.copyOf(taints);
    allocatable = allocatable == null ? Map.of() : Map.copyOf(allocatable);
    capacity = capacity == null ? Map.of() : Map.copyOf(capacity);
    images = images == null ? List.of() : List.copyOf(images);
  }

  /** The node's name. */
  public String name() {
    return metadata.name();
  }
}
