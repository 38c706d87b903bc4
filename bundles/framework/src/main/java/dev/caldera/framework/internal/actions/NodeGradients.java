package dev.caldera.framework.internal.actions;

import dev.caldera.api.action.ActionSession;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.resource.Resource;
import java.util.ArrayList;
import java.util.List;

/**
 * Allocate's {@code prioritizeNodes}: the feasible nodes split, in order, into the nodes whose idle
 * holds the task and the nodes that hold it only once releasing resources are freed; the first
 * non-empty gradient is used, so a node with room now always wins over one that needs pipelining.
 * Reuses its lists across tasks; not thread-safe.
 */
final class NodeGradients {

  private final List<NodeInfo> idle = new ArrayList<>();
  private final List<NodeInfo> futureIdle = new ArrayList<>();

  /** Splits {@code feasible}; nodes that fit neither way are dropped. */
  void split(Resource request, List<NodeInfo> feasible) {
    idle.clear();
    futureIdle.clear();
    for (NodeInfo n : feasible) {
      if (NodeFit.fitsIdle(request, n)) {
        idle.add(n);
      } else if (NodeFit.fitsFutureIdle(request, n)) {
        futureIdle.add(n);
      }
    }
  }

  /** The nodes whose idle holds the request, after {@link #split}. */
  List<NodeInfo> idle() {
    return idle;
  }

  /** The nodes that hold the request only with releasing resources, after {@link #split}. */
  List<NodeInfo> futureIdle() {
    return futureIdle;
  }

  /**
   * The chosen node: in the first non-empty gradient, its only node, else the best-scoring one;
   * null if no node fits.
   */
  NodeInfo choose(ActionSession session, TaskInfo task, List<NodeInfo> feasible) {
    split(task.initResreq(), feasible);
    NodeInfo best = NodeScores.bestNode(session, task, idle);
    return best != null ? best : NodeScores.bestNode(session, task, futureIdle);
  }
}
