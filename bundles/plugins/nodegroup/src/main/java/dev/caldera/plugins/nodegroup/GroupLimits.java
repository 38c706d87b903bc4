package dev.caldera.plugins.nodegroup;

import dev.caldera.api.model.Queue;
import dev.caldera.api.resource.Quantity;
import dev.caldera.api.resource.ResourceNames;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.support.json.AnnotationJson;
import dev.caldera.support.resource.Resource;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A queue's per-group resource limits, read from the annotation {@value #ANNOTATION}: a JSON map
 * from group name to a resource list. Only the listed resources are limited.
 */
final class GroupLimits {

  /** Volcano's {@code NodeGroupResourceLimitsAnnotationKey}. */
  static final String ANNOTATION = "volcano.sh/nodegroup-resource-limits";

  /** One group's limit: the resource and the names it lists. */
  record Limit(ResourceView resource, List<String> names) {}

  static final GroupLimits NONE = new GroupLimits(Map.of());

  private final Map<String, Limit> byGroup;

  private GroupLimits(Map<String, Limit> byGroup) {
    this.byGroup = byGroup;
  }

  /**
   * The queue's limits; none when the annotation is absent or empty.
   *
   * @throws IllegalArgumentException when the annotation is not a JSON map of resource lists
   */
  static GroupLimits of(Queue queue) {
    String raw = queue.metadata().annotations().get(ANNOTATION);
    if (raw == null || raw.isEmpty()) {
      return NONE;
    }
    Object parsed = AnnotationJson.read(raw);
    if (parsed == null) {
      return NONE;
    }
    if (!(parsed instanceof Map<?, ?> groups)) {
      throw new IllegalArgumentException("expected a JSON object of node group resource lists");
    }
    Map<String, Limit> byGroup = new HashMap<>();
    for (Map.Entry<?, ?> g : groups.entrySet()) {
      byGroup.put((String) g.getKey(), limit((String) g.getKey(), g.getValue()));
    }
    return new GroupLimits(Collections.unmodifiableMap(byGroup));
  }

  private static Limit limit(String group, Object value) {
    if (value == null) {
      return new Limit(Resource.empty(), List.of());
    }
    if (!(value instanceof Map<?, ?> list)) {
      throw new IllegalArgumentException("group " + group + ": expected a resource list object");
    }
    Map<String, Quantity> quantities = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : list.entrySet()) {
      String name = (String) e.getKey();
      Object q = e.getValue();
      Quantity quantity;
      if (q == null) {
        quantity = Quantity.of(0);
      } else if (q instanceof String s) {
        quantity = Quantity.parse(s);
      } else if (q instanceof BigDecimal n) {
        quantity = Quantity.parse(n.toPlainString());
      } else {
        throw new IllegalArgumentException(
            "group " + group + ", resource " + name + ": expected a quantity");
      }
      quantities.put(name, quantity);
    }
    return new Limit(Resource.fromList(quantities), List.copyOf(quantities.keySet()));
  }

  /** Whether no group is limited. */
  boolean isEmpty() {
    return byGroup.isEmpty();
  }

  /** The limit of {@code group}, or null. */
  Limit get(String group) {
    return byGroup.get(group);
  }

  /**
   * The limited resources that {@code used} exceeds by at least ε ({@code
   * limitedResourceExceededNames}), cpu and memory first.
   */
  static List<String> exceeded(ResourceView used, Limit limit) {
    List<String> out = new ArrayList<>(0);
    List<String> names = limit.names();
    if (names.contains(ResourceNames.CPU)
        && greater(used.milliCpu(), limit.resource().milliCpu())) {
      out.add(ResourceNames.CPU);
    }
    if (names.contains(ResourceNames.MEMORY) && greater(used.memory(), limit.resource().memory())) {
      out.add(ResourceNames.MEMORY);
    }
    for (String name : names) {
      if (name.equals(ResourceNames.CPU) || name.equals(ResourceNames.MEMORY)) {
        continue;
      }
      if (greater(used.get(name), limit.resource().get(name))) {
        out.add(name);
      }
    }
    return out;
  }

  private static boolean greater(double used, double limit) {
    return used > limit && used - limit >= Resource.EPSILON;
  }
}
