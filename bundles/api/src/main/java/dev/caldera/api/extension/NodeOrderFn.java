package dev.caldera.api.extension;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Scores one node for a task; higher is better.
 *
 * <ul>
 *   <li>Called by: {@code allocate}, {@code backfill} and {@code preempt}, for each feasible node.
 *   <li>Combined: the scores of every enabled plugin add up (with the {@link BatchNodeOrderFn}
 *       scores); the highest total wins, ties on node order.
 *   <li>Gate: {@code enableNodeOrder}.
 *   <li>Threading: may be called concurrently for different nodes (from 256 candidates on); must
 *       not change session state.
 *   <li>Reuse: registered with a {@link NodeLocality}, its score for a task may be reused for later
 *       tasks of the same key on a node whose state did not change; without one, it is called for
 *       every task and node (and allocate reuses no answers at all).
 * </ul>
 */
@ConsumerType
@FunctionalInterface
public interface NodeOrderFn {
  double score(TaskInfo task, NodeInfo node);
}
