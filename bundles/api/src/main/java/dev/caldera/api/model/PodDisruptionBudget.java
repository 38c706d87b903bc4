package dev.caldera.api.model;

/** A PodDisruptionBudget with its status's {@code disruptionsAllowed}. */
public record PodDisruptionBudget(
    ObjectMeta metadata,
    LabelSelector selector,
    int disruptionsAllowed,
    java.util.Set<String> disruptedPods) {
  public PodDisruptionBudget {
    disruptedPods =
        disruptedPods == null ? java.util.Set.of() : java.util.Set.copyOf(disruptedPods);
  }
}
