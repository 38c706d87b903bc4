package dev.caldera.api.model;

import java.util.List;

/** Pod affinity or anti-affinity: required and preferred terms. */
public record PodAffinity(List<PodAffinityTerm> required, List<WeightedPodAffinityTerm> preferred) {
  public PodAffinity {
    required = required == null ? List.of() : List.copyOf(required);
    preferred = preferred == null ? List.of() : List.copyOf(preferred);
  }

  /** Whether there are no terms at all. */
  public boolean isEmpty() {
    return required.isEmpty() && preferred.isEmpty();
  }
}
