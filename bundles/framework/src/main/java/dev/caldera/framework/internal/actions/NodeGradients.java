package dev.caldera.framework.internal.actions;

import dev.caldera.api.action.ActionSession;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import java.util.List;

/**
 * Allocate's {@code prioritizeNodes}: the feasible nodes split, in order, into the nodes whose idle
 * holds the task and the nodes that hold it only once releasing resources are freed; the first
 * non-empty gradient is used, so a node with room now always wins over one that needs pipelining.
 * Reuses its lists across tasks; not thread-safe.
 */
final class NodeGradients {

  /**
   * The success {@link AllocPredicate} returns for a node whose idle holds the task (compared by
   * identity; its reason is never shown).
   */
  static final Status FITS_IDLE = PredicateHelper.FITS_TAGGED;

  private final int[] idleIndices;
  private final int[] futureIdleIndices;
  private List<NodeInfo> idle = List.of();
  private List<NodeInfo> futureIdle = List.of();

  /** Gradients for a session of {@code nodeCount} nodes. */
  NodeGradients(int nodeCount) {
    idleIndices = new int[nodeCount];
    futureIdleIndices = new int[nodeCount];
  }

  /** Splits the feasible nodes of an {@link AllocPredicate} filter. */
  void split(PredicateHelper.Filtered filtered) {
    long counts = filtered.partition(idleIndices, futureIdleIndices);
    idle = filtered.nodes().view(idleIndices, (int) (counts >>> 32));
    futureIdle = filtered.nodes().view(futureIdleIndices, (int) counts);
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
   * null if there is none.
   */
  NodeInfo choose(ActionSession session, TaskInfo task, PredicateHelper.Filtered filtered) {
    split(filtered);
    NodeInfo best = NodeScores.bestNode(session, task, idle);
    return best != null ? best : NodeScores.bestNode(session, task, futureIdle);
  }
}
