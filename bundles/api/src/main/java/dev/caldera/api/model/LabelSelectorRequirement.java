package dev.caldera.api.model;

import java.util.List;

/** One {@code matchExpressions} entry: key, operator (In, NotIn, Exists, DoesNotExist), values. */
public record LabelSelectorRequirement(String key, String operator, List<String> values) {
  public LabelSelectorRequirement {
    values = values == null ? List.of() : List.copyOf(values);
  }
}
