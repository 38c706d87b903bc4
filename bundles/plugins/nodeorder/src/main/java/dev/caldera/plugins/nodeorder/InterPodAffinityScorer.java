package dev.caldera.plugins.nodeorder;

import dev.caldera.api.placement.PodPlacement;
import dev.caldera.api.placement.SessionTopology;
import dev.caldera.api.placement.TopologyCounts;
import java.util.Map;

/**
 * kube-scheduler's InterPodAffinity score as Volcano configures it (zero-value args: hard pod
 * affinity weight 0, existing pods' preferred terms not ignored). Every pod counted on any node of
 * the session adds to a per-topology-pair sum: the incoming pod's preferred affinity (+weight) and
 * anti-affinity (−weight) terms that the existing pod matches, and the existing pod's preferred
 * terms that the incoming pod matches. The sums are the session's shared counts ({@link
 * SessionTopology#matchingEach}, {@link SessionTopology#existingPreferred}). A candidate scores the
 * sums of its topology values, min-max normalised over the candidates.
 */
final class InterPodAffinityScorer {

  private InterPodAffinityScorer() {}

  /**
   * Writes the normalised scores of the first {@code n} candidates into {@code out}; false
   * (PreScore Skip: every score 0) when no term contributes anything.
   */
  static boolean score(
      PodPlacement incoming, NodeState[] candidates, int n, long[] out, SessionTopology topology) {
    boolean hasTerms = incoming.hasPreferredPodTerms();
    if (!hasTerms && topology.podsWithPreferredPodTerms() == 0) {
      return false;
    }
    // The three shared counts are added per candidate; when they cancel out everywhere every
    // score is 0, as upstream's Skip.
    TopologyCounts affinity = topology.matchingEach(incoming.preferredAffinity());
    TopologyCounts antiAffinity = topology.matchingEach(incoming.preferredAntiAffinity());
    TopologyCounts existing = topology.existingPreferred(incoming.pod());
    if (affinity.isEmpty() && antiAffinity.isEmpty() && existing.isEmpty()) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      Map<String, String> labels = candidates[i].labels;
      out[i] = affinity.sum(labels) - antiAffinity.sum(labels) + existing.sum(labels);
    }
    Normalize.minMax(out, n);
    return true;
  }
}
