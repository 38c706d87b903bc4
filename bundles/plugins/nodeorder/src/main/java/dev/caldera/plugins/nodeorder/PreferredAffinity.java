package dev.caldera.plugins.nodeorder;

import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodAffinity;
import dev.caldera.api.model.WeightedPodAffinityTerm;
import java.util.ArrayList;
import java.util.List;

/** A pod's preferred pod affinity and anti-affinity terms, compiled. */
record PreferredAffinity(List<AffinityTerm> affinity, List<AffinityTerm> antiAffinity) {

  /** The pod's preferred terms, or null if it has none. */
  static PreferredAffinity of(Pod pod) {
    List<AffinityTerm> affinity = compile(pod, pod.podAffinity());
    List<AffinityTerm> anti = compile(pod, pod.podAntiAffinity());
    return affinity.isEmpty() && anti.isEmpty() ? null : new PreferredAffinity(affinity, anti);
  }

  /** Whether the pod has preferred terms at all, without compiling them. */
  static boolean has(Pod pod) {
    return hasPreferred(pod.podAffinity()) || hasPreferred(pod.podAntiAffinity());
  }

  private static boolean hasPreferred(PodAffinity a) {
    return a != null && !a.preferred().isEmpty();
  }

  private static List<AffinityTerm> compile(Pod pod, PodAffinity a) {
    if (!hasPreferred(a)) {
      return List.of();
    }
    List<AffinityTerm> out = new ArrayList<>();
    for (WeightedPodAffinityTerm w : a.preferred()) {
      if (w.term() != null) {
        out.add(AffinityTerm.of(pod, w.term(), w.weight()));
      }
    }
    return List.copyOf(out);
  }
}
