package dev.caldera.api.model;

import java.util.List;

/** A node selector requirement: In, NotIn, Exists, DoesNotExist, Gt, Lt. */
public record NodeSelectorRequirement(String key, String operator, List<String> values) {
  public NodeSelectorRequirement {
    values = values == null ? List.of() : List.copyOf(values);
  }
}
