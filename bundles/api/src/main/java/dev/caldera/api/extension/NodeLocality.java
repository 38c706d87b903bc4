package dev.caldera.api.extension;

import dev.caldera.api.info.TaskInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * A declaration a plugin may register with a {@link PredicateFn}, {@link NodeOrderFn} or {@link
 * BatchNodeOrderFn} ({@link dev.caldera.api.Extensions#add(dev.caldera.api.ExtensionPoint, Object,
 * NodeLocality)}): for which tasks the function's answer on a node depends only on what it reads of
 * the task and on that node's state, so that the framework may reuse an answer instead of asking
 * again.
 *
 * <p>The promise behind a non-null {@link #taskKey}: for two tasks with equal keys, the function
 * gives the same answer on a node as long as that node's accounting has not changed in between (its
 * tasks, idle, used, releasing and pipelined resources; the plugin's own per-node state that its
 * event handler updates counts as part of it). For a batch function, a node's score must also not
 * depend on which other nodes are candidates (no normalisation over the candidates), and its status
 * must be success: the framework may call it with any subset of the nodes, one at a time.
 *
 * <ul>
 *   <li>Called by: {@code allocate}, for each task, after the task's pre-predicates.
 *   <li>Combined: the framework reuses answers for a task only when every enabled predicate,
 *       node-order and batch node-order function of the session gives a non-null key for it; a
 *       function registered without a locality counts as null for every task.
 *   <li>Gate: the flags of the function it was registered with.
 *   <li>Threading: on the session's thread; must not change session state.
 *   <li>Null: the answer for this task may depend on more (other nodes, other pods' placement, the
 *       candidate set, data outside the session), so the framework asks the function for every
 *       node, as without a locality.
 * </ul>
 *
 * <p>The key must say everything of the task the function reads (equal keys mean equal reads), be a
 * value with {@code equals} and {@code hashCode} (a record, a {@code List.of(...)} of values), and
 * may include the plugin's own session state that is not per node (for example a count that makes
 * the function non-local while it is not zero): when that state changes, so does the key.
 */
@ConsumerType
@FunctionalInterface
public interface NodeLocality {

  /** A function whose answer depends on the node alone, the same for every task. */
  NodeLocality TASK_INDEPENDENT = task -> Boolean.TRUE;

  /** The key of what the function reads of {@code task}, or null when it is not node-local. */
  Object taskKey(TaskInfo task);
}
