package dev.caldera.plugins.nodeorder;

import dev.caldera.api.model.Pod;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * kube-scheduler's InterPodAffinity score as Volcano configures it (zero-value args: hard pod
 * affinity weight 0, existing pods' preferred terms not ignored). Every pod counted on any node of
 * the session adds to a per-topology-value sum: the incoming pod's preferred affinity (+weight) and
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
  static boolean score(Pod pod, NodeState[] candidates, int n, long[] out, ClusterState cluster) {
    boolean hasTerms = PreferredAffinity.has(pod);
    if (!hasTerms && cluster.podsWithPreferredAffinity() == 0) {
      return false;
    }
    PreferredAffinity own = hasTerms ? PreferredAffinity.of(pod) : null;
    Map<String, String> ownNamespaceLabels = cluster.namespaceLabels(pod.namespace());
    Map<String, String> ownLabelsForExisting =
        ownNamespaceLabels == null ? Map.of() : ownNamespaceLabels;
    TopologyScores topology = new TopologyScores();
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
          topology.add(own.affinity(), existing.pod(), nsLabels, node, 1);
          topology.add(own.antiAffinity(), existing.pod(), nsLabels, node, -1);
        }
        if (existing.affinity() != null) {
          topology.add(existing.affinity().affinity(), pod, ownLabelsForExisting, node, 1);
          topology.add(existing.affinity().antiAffinity(), pod, ownLabelsForExisting, node, -1);
        }
      }
    }
    if (topology.isEmpty()) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      out[i] = topology.score(candidates[i].labels);
    }
    Normalize.minMax(out, n);
    return true;
  }

  /** Topology key → topology value → summed weight. */
  private static final class TopologyScores {
    private final Map<String, Map<String, long[]>> byKey = new HashMap<>();

    void add(
        List<AffinityTerm> terms,
        Pod target,
        Map<String, String> targetNamespaceLabels,
        NodeState node,
        int sign) {
      for (AffinityTerm term : terms) {
        if (!term.matches(target, targetNamespaceLabels)) {
          continue;
        }
        String value = node.labels.get(term.topologyKey);
        if (value == null) {
          continue;
        }
        byKey.computeIfAbsent(term.topologyKey, k -> new HashMap<>())
                .computeIfAbsent(value, v -> new long[1])[0] +=
            (long) term.weight * sign;
      }
    }

    boolean isEmpty() {
      return byKey.isEmpty();
    }

    long score(Map<String, String> labels) {
      long score = 0;
      for (Map.Entry<String, Map<String, long[]>> e : byKey.entrySet()) {
        String value = labels.get(e.getKey());
        if (value != null) {
          long[] v = e.getValue().get(value);
          if (v != null) {
            score += v[0];
          }
        }
      }
      return score;
    }
  }
}
