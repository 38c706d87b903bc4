package dev.caldera.api.model;

/**
 * A toleration. {@code operator} is Equal (default) or Exists; empty effect matches all effects.
 */
public record Toleration(
    String key, String operator, String value, String effect, Long tolerationSeconds) {
  public Toleration {
    key = key == null ? "" : key;
    operator = operator == null || operator.isEmpty() ? "Equal" : operator;
    value = value == null ? "" : value;
    effect = effect == null ? "" : effect;
  }

  /** Whether this toleration tolerates {@code taint} (Kubernetes {@code ToleratesTaint}). */
  public boolean tolerates(Taint taint) {
    if (!effect.isEmpty() && !effect.equals(taint.effect())) {
      return false;
    }
    if (!key.isEmpty() && !key.equals(taint.key())) {
      return false;
    }
    return switch (operator) {
      case "Exists" -> true;
      case "Equal" -> value.equals(taint.value());
      default -> false;
    };
  }
}
