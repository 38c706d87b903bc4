package dev.caldera.api.model;

import java.util.List;

/**
 * An inter-pod affinity term. Null {@code labelSelector} matches no pod. An empty {@code
 * namespaces} list with a null {@code namespaceSelector} means the pod's own namespace.
 */
public record PodAffinityTerm(
    LabelSelector labelSelector,
    List<String> namespaces,
    String topologyKey,
    LabelSelector namespaceSelector,
    List<String> matchLabelKeys,
    List<String> mismatchLabelKeys) {
  public PodAffinityTerm {
    namespaces = namespaces == null ? List.of() : List.copyOf(namespaces);
    matchLabelKeys = matchLabelKeys == null ? List.of() : List.copyOf(matchLabelKeys);
    mismatchLabelKeys = mismatchLabelKeys == null ? List.of() : List.copyOf(mismatchLabelKeys);
  }
}
