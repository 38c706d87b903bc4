package dev.caldera.support.placement;

import dev.caldera.api.model.LabelSelector;
import dev.caldera.api.model.LabelSelectorRequirement;
import dev.caldera.api.placement.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The parser of Kubernetes label selectors into {@link Selector}s ({@code
 * metav1.LabelSelectorAsSelector}), and the one implementation of that view. A requirement
 * Kubernetes would reject (unknown operator; In or NotIn without values; Exists or DoesNotExist
 * with values) keeps the meaning it had before parsing: an unknown operator matches nothing, In
 * without values matches nothing, NotIn without values matches everything, Exists and DoesNotExist
 * ignore values.
 */
public final class LabelSelectors implements Selector {

  /** {@code labels.Nothing()}. */
  public static final LabelSelectors NOTHING = new LabelSelectors(new Requirement[0], true);

  /** {@code labels.Everything()}. */
  public static final LabelSelectors EVERYTHING = new LabelSelectors(new Requirement[0], false);

  private static final String OPERATORS = "one of In, NotIn, Exists, DoesNotExist";

  private enum Op {
    IN,
    NOT_IN,
    EXISTS,
    DOES_NOT_EXIST,
    INVALID
  }

  private record Requirement(String key, Op op, Set<String> values) {
    boolean matches(Map<String, String> labels) {
      String v = labels.get(key);
      return switch (op) {
        case IN -> v != null && values.contains(v);
        case NOT_IN -> v == null || !values.contains(v);
        case EXISTS -> v != null || labels.containsKey(key);
        case DOES_NOT_EXIST -> v == null && !labels.containsKey(key);
        case INVALID -> false;
      };
    }
  }

  private final Requirement[] requirements;
  private final boolean nothing;

  private LabelSelectors(Requirement[] requirements, boolean nothing) {
    this.requirements = requirements;
    this.nothing = nothing;
  }

  /**
   * {@code metav1.LabelSelectorAsSelector}: null gives {@link #NOTHING}, an empty selector {@link
   * #EVERYTHING}.
   */
  public static Selector of(LabelSelector selector) {
    return parse(selector, "labelSelector", null);
  }

  /** As {@link #of}, reporting what Kubernetes would reject under {@code field}. */
  static LabelSelectors parse(LabelSelector selector, String field, Problems problems) {
    if (selector == null) {
      return NOTHING;
    }
    List<Requirement> out = new ArrayList<>();
    for (Map.Entry<String, String> e : new TreeMap<>(selector.matchLabels()).entrySet()) {
      out.add(new Requirement(e.getKey(), Op.IN, Set.of(e.getValue())));
    }
    List<LabelSelectorRequirement> expressions = selector.matchExpressions();
    for (int i = 0; i < expressions.size(); i++) {
      LabelSelectorRequirement r = expressions.get(i);
      String at = field + ".matchExpressions[" + i + "]";
      Op op = r.key() == null ? Op.INVALID : operator(r.operator());
      if (problems != null) {
        check(r, at, problems);
      }
      out.add(new Requirement(r.key(), op, Set.copyOf(r.values())));
    }
    return out.isEmpty() ? EVERYTHING : new LabelSelectors(out.toArray(new Requirement[0]), false);
  }

  private static Op operator(String operator) {
    if (operator == null) {
      return Op.INVALID;
    }
    return switch (operator) {
      case "In" -> Op.IN;
      case "NotIn" -> Op.NOT_IN;
      case "Exists" -> Op.EXISTS;
      case "DoesNotExist" -> Op.DOES_NOT_EXIST;
      default -> Op.INVALID;
    };
  }

  private static void check(LabelSelectorRequirement r, String at, Problems problems) {
    if (r.key() == null || r.key().isEmpty()) {
      problems.add(at + ".key", "a label key", r.key());
    }
    switch (operator(r.operator())) {
      case INVALID -> problems.add(at + ".operator", OPERATORS, r.operator());
      case IN, NOT_IN -> {
        if (r.values().isEmpty()) {
          problems.add(at + ".values", "at least one value for " + r.operator(), null);
        }
      }
      case EXISTS, DOES_NOT_EXIST -> {
        if (!r.values().isEmpty()) {
          problems.add(at + ".values", "no values for " + r.operator(), r.values());
        }
      }
    }
  }

  /** A selector requiring every label of {@code labels} with its value ({@code Set.AsSelector}). */
  public static Selector ofLabels(Map<String, String> labels) {
    if (labels.isEmpty()) {
      return EVERYTHING;
    }
    List<Requirement> out = new ArrayList<>();
    for (Map.Entry<String, String> e : new TreeMap<>(labels).entrySet()) {
      out.add(new Requirement(e.getKey(), Op.IN, Set.of(e.getValue())));
    }
    return new LabelSelectors(out.toArray(new Requirement[0]), false);
  }

  /**
   * This selector with one more requirement {@code key operator (value)}, operator In or NotIn;
   * {@link #NOTHING} stays nothing.
   */
  LabelSelectors with(String key, String operator, String value) {
    if (nothing) {
      return this;
    }
    Requirement[] out = java.util.Arrays.copyOf(requirements, requirements.length + 1);
    out[requirements.length] = new Requirement(key, operator(operator), Set.of(value));
    return new LabelSelectors(out, false);
  }

  @Override
  public boolean matches(Map<String, String> labels) {
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

  @Override
  public boolean isEmpty() {
    return !nothing && requirements.length == 0;
  }

  @Override
  public boolean isNothing() {
    return nothing;
  }

  /** Selectors are equal when they have the same requirements in the same order. */
  @Override
  public boolean equals(Object o) {
    return o instanceof LabelSelectors other
        && nothing == other.nothing
        && java.util.Arrays.equals(requirements, other.requirements);
  }

  @Override
  public int hashCode() {
    return 31 * java.util.Arrays.hashCode(requirements) + (nothing ? 1 : 0);
  }
}
