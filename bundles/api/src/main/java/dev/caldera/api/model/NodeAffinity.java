package dev.caldera.api.model;

import java.util.List;

/**
 * Node affinity. {@code required} is null when there is no required node selector (any node), and a
 * list of terms (ORed) otherwise.
 */
public record NodeAffinity(
    List<NodeSelectorTerm> required, List<PreferredSchedulingTerm> preferred) {
  public NodeAffinity {
    required = required == null ? null : List.copyOf(required);
    preferred = preferred == null ? List.of() : List.copyOf(preferred);
  }
}
