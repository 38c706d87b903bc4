package dev.caldera.plugins.nodeorder;

import dev.caldera.api.placement.PodPlacement;
import dev.caldera.api.placement.PodPlacement.WeightedNodeTerm;
import java.util.List;

/**
 * kube-scheduler's NodeAffinity score: the sum of the weights of the pod's preferred node selector
 * terms that a node matches, normalised against the best candidate.
 */
final class NodeAffinityScorer {

  private NodeAffinityScorer() {}

  /**
   * Writes the normalised scores of the first {@code n} nodes into {@code out}; false (nothing
   * written, every score 0) when the pod has no preferred terms.
   */
  static boolean score(PodPlacement pod, NodeState[] nodes, int n, long[] out) {
    List<WeightedNodeTerm> terms = pod.preferredNodeTerms();
    if (terms.isEmpty()) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      NodeState node = nodes[i];
      long sum = 0;
      for (int t = 0; t < terms.size(); t++) {
        WeightedNodeTerm term = terms.get(t);
        if (term.term().matches(node.labels, node.name)) {
          sum += term.weight();
        }
      }
      out[i] = sum;
    }
    Normalize.byMax(out, n, false);
    return true;
  }
}
