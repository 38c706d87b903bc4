package dev.caldera.api.model;

import dev.caldera.api.resource.Quantity;
import java.util.Map;

/**
 * A Volcano Queue ({@code scheduling.volcano.sh/v1beta1}).
 *
 * @param reclaimable null means true
 * @param parent empty means root
 * @param state Open, Closed, Closing or Unknown
 */
public record Queue(
    ObjectMeta metadata,
    int weight,
    Map<String, Quantity> capability,
    Map<String, Quantity> deserved,
    Map<String, Quantity> guarantee,
    Boolean reclaimable,
    String parent,
    int priority,
    NodeGroupAffinity nodeGroupAffinity,
    NodeGroupAffinity nodeGroupAntiAffinity,
    String state,
    Map<String, Quantity> allocated) {
  public Queue {
    capability = capability == null ? null : Map.copyOf(capability);
    deserved = deserved == null ? null : Map.copyOf(deserved);
    guarantee = guarantee == null ? null : Map.copyOf(guarantee);
    parent = parent == null ? "" : parent;
    state = state == null || state.isEmpty() ? "Open" : state;
    allocated = allocated == null ? Map.of() : Map.copyOf(allocated);
  }

  /** This queue with another {@code status.allocated}. */
  public Queue withAllocated(Map<String, Quantity> allocated) {
    return new Queue(
        metadata,
        weight,
        capability,
        deserved,
        guarantee,
        reclaimable,
        parent,
        priority,
        nodeGroupAffinity,
        nodeGroupAntiAffinity,
        state,
        allocated);
  }

  /** This queue with another {@code status.state}. */
  public Queue withState(String state) {
    return new Queue(
        metadata,
        weight,
        capability,
        deserved,
        guarantee,
        reclaimable,
        parent,
        priority,
        nodeGroupAffinity,
        nodeGroupAntiAffinity,
        state,
        allocated);
  }

  /** This queue with other annotations. */
  public Queue withAnnotations(Map<String, String> annotations) {
    return new Queue(
        metadata.withAnnotations(annotations),
        weight,
        capability,
        deserved,
        guarantee,
        reclaimable,
        parent,
        priority,
        nodeGroupAffinity,
        nodeGroupAntiAffinity,
        state,
        allocated);
  }

  /** The queue's name. */
  public String name() {
    return metadata.name();
  }
}
