package dev.caldera.plugins.nodeorder;

import dev.caldera.api.model.LabelSelector;
import dev.caldera.api.model.LabelSelectorRequirement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A compiled Kubernetes label selector ({@code labels.Selector}): a conjunction of requirements.
 * {@link #NOTHING} matches no label set; a selector without requirements matches every set and is
 * "empty" in the sense of {@code Selector.Empty()}.
 */
final class Selector {

  /** {@code labels.Nothing()}: what a null {@code LabelSelector} converts to. */
  static final Selector NOTHING = new Selector(List.of(), true);

  /** {@code labels.Everything()}. */
  static final Selector EVERYTHING = new Selector(List.of(), false);

  private record Requirement(String key, String operator, List<String> values) {
    boolean matches(Map<String, String> labels) {
      String v = labels.get(key);
      return switch (operator) {
        case "In" -> v != null && values.contains(v);
        case "NotIn" -> v == null || !values.contains(v);
        case "Exists" -> labels.containsKey(key);
        case "DoesNotExist" -> !labels.containsKey(key);
        default -> false;
      };
    }
  }

  private final List<Requirement> requirements;
  private final boolean nothing;

  private Selector(List<Requirement> requirements, boolean nothing) {
    this.requirements = requirements;
    this.nothing = nothing;
  }

  /**
   * {@code metav1.LabelSelectorAsSelector}: null gives {@link #NOTHING}, empty gives everything.
   */
  static Selector of(LabelSelector selector) {
    if (selector == null) {
      return NOTHING;
    }
    List<Requirement> out = new ArrayList<>();
    for (Map.Entry<String, String> e : new TreeMap<>(selector.matchLabels()).entrySet()) {
      out.add(new Requirement(e.getKey(), "In", List.of(e.getValue())));
    }
    for (LabelSelectorRequirement r : selector.matchExpressions()) {
      out.add(new Requirement(r.key(), r.operator(), r.values()));
    }
    return out.isEmpty() ? EVERYTHING : new Selector(List.copyOf(out), false);
  }

  /** A selector requiring every label of {@code labels} with its value ({@code Set.AsSelector}). */
  static Selector ofLabels(Map<String, String> labels) {
    Selector s = EVERYTHING;
    for (Map.Entry<String, String> e : new TreeMap<>(labels).entrySet()) {
      s = s.with(e.getKey(), "In", e.getValue());
    }
    return s;
  }

  /** This selector with one more requirement; {@link #NOTHING} stays nothing. */
  Selector with(String key, String operator, String value) {
    if (nothing) {
      return this;
    }
    List<Requirement> out = new ArrayList<>(requirements);
    out.add(new Requirement(key, operator, List.of(value)));
    return new Selector(List.copyOf(out), false);
  }

  /** Whether {@code labels} satisfy every requirement. */
  boolean matches(Map<String, String> labels) {
    if (nothing) {
      return false;
    }
    for (Requirement r : requirements) {
      if (!r.matches(labels)) {
        return false;
      }
    }
    return true;
  }

  /** {@code Selector.Empty()}: no requirements, and not {@link #NOTHING}. */
  boolean isEmpty() {
    return !nothing && requirements.isEmpty();
  }
}
