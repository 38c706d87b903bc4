package dev.caldera.plugins.nodeorder;

import dev.caldera.api.model.Pod;
import dev.caldera.api.placement.AffinityTerm;
import dev.caldera.api.placement.PodPlacement;
import dev.caldera.api.placement.TopologyCounts;
import java.util.List;
import java.util.Map;

/**
 * kube-scheduler's InterPodAffinity score as Volcano configures it (zero-value args: hard pod
 * affinity weight 0, existing pods' preferred terms not ignored). Every pod counted on any node of
 * the session adds to a per-topology-pair sum: the incoming pod's preferred affinity (+weight) and
 * anti-affinity (−weight) terms that the existing pod matches, and the existing pod's preferred
 * terms that the incoming pod matches. A candidate scores the sums of its topology values, min-max
 * normalised over the candidates.
 */
final class InterPodAffinityScorer {

  private InterPodAffinityScorer() {}

  /**
   * Writes the normalised scores of the first {@code n} candidates into {@code out}; false
   * (PreScore Skip: every score 0) when no term contributes anything.
   */
  static boolean score(
      PodPlacement incoming, NodeState[] candidates, int n, long[] out, ClusterState cluster) {
    boolean hasTerms = incoming.hasPreferredPodTerms();
    if (!hasTerms && cluster.podsWithPreferredAffinity() == 0) {
      return false;
    }
    Pod pod = incoming.pod();
    PodPlacement own = hasTerms ? incoming : null;
    Map<String, String> ownNamespaceLabels = cluster.namespaceLabels(pod.namespace());
    Map<String, String> ownLabelsForExisting =
        ownNamespaceLabels == null ? Map.of() : ownNamespaceLabels;
    TopologyCounts topology = new TopologyCounts();
    for (NodeState node : cluster.nodes()) {
      if (node.labels.isEmpty()) {
        continue;
      }
      for (NodeState.Placed existing : node.pods()) {
        if (own == null && existing.affinity() == null) {
          continue;
        }
        if (own != null) {
          Map<String, String> nsLabels = cluster.namespaceLabels(existing.pod().namespace());
          add(topology, own.preferredAffinity(), existing.pod(), nsLabels, node, 1);
          add(topology, own.preferredAntiAffinity(), existing.pod(), nsLabels, node, -1);
        }
        if (existing.affinity() != null) {
          PodPlacement theirs = existing.affinity();
          add(topology, theirs.preferredAffinity(), pod, ownLabelsForExisting, node, 1);
          add(topology, theirs.preferredAntiAffinity(), pod, ownLabelsForExisting, node, -1);
        }
      }
    }
    if (topology.isEmpty()) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      out[i] = topology.sum(candidates[i].labels);
    }
    Normalize.minMax(out, n);
    return true;
  }

  /** Adds ±weight to the node's pair of each term that {@code target} matches. */
  private static void add(
      TopologyCounts topology,
      List<AffinityTerm> terms,
      Pod target,
      Map<String, String> targetNamespaceLabels,
      NodeState node,
      int sign) {
    for (int i = 0; i < terms.size(); i++) {
      AffinityTerm term = terms.get(i);
      if (term.matches(target, targetNamespaceLabels)) {
        topology.add(term.topologyKey(), node.labels, (long) term.weight() * sign);
      }
    }
  }
}
