package dev.caldera.api.model;

import java.util.List;
import java.util.Map;

/**
 * A Kubernetes label selector. An empty selector (no labels, no expressions) matches everything; a
 * null selector reference matches nothing, as in Kubernetes.
 */
public record LabelSelector(
    Map<String, String> matchLabels, List<LabelSelectorRequirement> matchExpressions) {
  public LabelSelector {
    matchLabels = matchLabels == null ? Map.of() : Map.copyOf(matchLabels);
    matchExpressions = matchExpressions == null ? List.of() : List.copyOf(matchExpressions);
  }

  /** Whether this selector selects nothing in particular (matches all). */
  public boolean isEmpty() {
    return matchLabels.isEmpty() && matchExpressions.isEmpty();
  }

  /** Whether {@code labels} satisfy every label and expression. */
  public boolean matches(Map<String, String> labels) {
    for (Map.Entry<String, String> e : matchLabels.entrySet()) {
      if (!e.getValue().equals(labels.get(e.getKey()))) {
        return false;
      }
    }
    for (LabelSelectorRequirement r : matchExpressions) {
      String v = labels.get(r.key());
      boolean ok =
          switch (r.operator()) {
            case "In" -> v != null && r.values().contains(v);
            case "NotIn" -> v == null || !r.values().contains(v);
            case "Exists" -> labels.containsKey(r.key());
            case "DoesNotExist" -> !labels.containsKey(r.key());
            default -> false;
          };
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
