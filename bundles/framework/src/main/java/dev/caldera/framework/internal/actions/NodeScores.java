package dev.caldera.framework.internal.actions;

import dev.caldera.api.action.ActionSession;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Choosing among scored nodes: {@code SelectBestNodeAndScore} (maximum score; ties go to the first
 * node in candidate order instead of a random one) and {@code SortNodes} (score descending, ties in
 * candidate order).
 */
final class NodeScores {

  private NodeScores() {}

  /** The index of the first maximum score, or -1 when there is none. */
  static int best(double[] scores) {
    int best = -1;
    double max = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < scores.length; i++) {
      if (scores[i] > max) {
        max = scores[i];
        best = i;
      }
    }
    return best;
  }

  /** The best-scoring node for the task; the only node without scoring; null when none. */
  static NodeInfo bestNode(ActionSession session, TaskInfo task, List<NodeInfo> candidates) {
    if (candidates.isEmpty()) {
      return null;
    }
    if (candidates.size() == 1) {
      return candidates.get(0);
    }
    int best = best(session.scoreNodes(task, candidates));
    return best < 0 ? null : candidates.get(best);
  }

  /** The candidates by descending score; equal scores keep their order. */
  static List<NodeInfo> sortedByScore(List<NodeInfo> candidates, double[] scores) {
    List<Integer> order = new ArrayList<>(candidates.size());
    for (int i = 0; i < candidates.size(); i++) {
      order.add(i);
    }
    order.sort(Comparator.comparingDouble((Integer i) -> scores[i]).reversed());
    List<NodeInfo> sorted = new ArrayList<>(candidates.size());
    for (int i : order) {
      sorted.add(candidates.get(i));
    }
    return sorted;
  }
}
