package dev.caldera.plugins.nodeorder;

import dev.caldera.api.model.NodeAffinity;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PreferredSchedulingTerm;
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
  static boolean score(Pod pod, NodeState[] nodes, int n, long[] out) {
    NodeAffinity affinity = pod.nodeAffinity();
    if (affinity == null || affinity.preferred().isEmpty()) {
      return false;
    }
    List<PreferredSchedulingTerm> terms = affinity.preferred();
    for (int i = 0; i < n; i++) {
      NodeState node = nodes[i];
      long sum = 0;
      for (PreferredSchedulingTerm t : terms) {
        if (t.weight() != 0
            && t.preference() != null
            && NodeSelectors.termMatches(t.preference(), node.labels, node.name)) {
          sum += t.weight();
        }
      }
      out[i] = sum;
    }
    Normalize.byMax(out, n, false);
    return true;
  }
}
