package dev.caldera.api.model;

import java.util.List;

/** A queue's node group affinity or anti-affinity ({@code spec.affinity}). */
public record NodeGroupAffinity(List<String> required, List<String> preferred) {
  public NodeGroupAffinity {
    required = required == null ? List.of() : List.copyOf(required);
    preferred = preferred == null ? List.of() : List.copyOf(preferred);
  }
}
