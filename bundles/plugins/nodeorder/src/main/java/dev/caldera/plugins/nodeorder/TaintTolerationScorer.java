package dev.caldera.plugins.nodeorder;

import dev.caldera.api.model.Taint;
import dev.caldera.api.model.Toleration;
import java.util.Arrays;
import java.util.List;

/**
 * kube-scheduler's TaintToleration score: the number of PreferNoSchedule taints the pod does not
 * tolerate, reverse-normalised, so that every candidate gets 100 when none of them has such a
 * taint.
 */
final class TaintTolerationScorer {

  static final String PREFER_NO_SCHEDULE = "PreferNoSchedule";

  private TaintTolerationScorer() {}

  /** Writes the normalised 0..100 scores of the first {@code n} nodes into {@code out}. */
  static void score(List<Toleration> tolerations, NodeState[] nodes, int n, long[] out) {
    boolean anyTainted = false;
    for (int i = 0; i < n && !anyTainted; i++) {
      anyTainted = nodes[i].preferNoSchedule;
    }
    if (!anyTainted) {
      Arrays.fill(out, 0, n, Normalize.MAX_NODE_SCORE);
      return;
    }
    for (int i = 0; i < n; i++) {
      out[i] = nodes[i].preferNoSchedule ? intolerable(nodes[i].node.taints(), tolerations) : 0;
    }
    Normalize.byMax(out, n, true);
  }

  static int intolerable(List<Taint> taints, List<Toleration> tolerations) {
    int count = 0;
    for (Taint taint : taints) {
      if (!PREFER_NO_SCHEDULE.equals(taint.effect())) {
        continue;
      }
      boolean tolerated = false;
      for (Toleration t : tolerations) {
        // Only tolerations with effect PreferNoSchedule or empty can match; tolerates() checks it.
        if (t.tolerates(taint)) {
          tolerated = true;
          break;
        }
      }
      if (!tolerated) {
        count++;
      }
    }
    return count;
  }
}
