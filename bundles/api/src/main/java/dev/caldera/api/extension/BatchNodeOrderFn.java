package dev.caldera.api.extension;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Scores candidate nodes together (normalised scores): adds each node's score to {@code scores[i]},
 * where {@code i} is the node's index in {@code nodes}.
 *
 * <ul>
 *   <li>Called by: {@code allocate}, {@code backfill} and {@code preempt}, once per task with the
 *       feasible nodes, after {@link NodeOrderFn}.
 *   <li>Combined: the scores of every enabled plugin add up, and to the node-order scores. A
 *       non-success status discards the batch scores of all plugins for this task.
 *   <li>Gate: {@code enableNodeOrder}.
 *   <li>Threading: on the session's thread; {@code scores} is this call's own.
 *   <li>Null: a null status counts as success.
 *   <li>Reuse: registered with a {@link NodeLocality}, it promises that a node's score does not
 *       depend on the other candidates (no normalisation) for the tasks it gives a key; allocate
 *       may then call it with one node at a time and reuse scores across tasks of the key.
 * </ul>
 *
 * <p>Inter-pod affinity and topology spread counts over the pods already placed are not computed
 * here per task: they are the session's, shared by every plugin ({@link
 * dev.caldera.api.Session#topology()}, computed once per key and kept up to date by the framework;
 * each node's {@link dev.caldera.api.info.NodeInfo#podsWithAffinity()} and {@link
 * dev.caldera.api.info.NodeInfo#podsWithRequiredAntiAffinity()}).
 */
@ConsumerType
@FunctionalInterface
public interface BatchNodeOrderFn {
  Status score(TaskInfo task, List<NodeInfo> nodes, double[] scores);
}
