package dev.caldera.api.extension;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Whether a task may run on a node, ignoring resources (the actions check those).
 *
 * <ul>
 *   <li>Called by: {@code allocate}, {@code backfill} (feasible nodes), {@code preempt} and {@code
 *       reclaim} (nodes where evicting could help; see {@link Status#resolvableByPreemption()}).
 *   <li>Combined: every enabled plugin must pass; the first failure is the answer (the session adds
 *       the plugin's name, {@link Status#plugin()}).
 *   <li>Gate: {@code enablePredicate}.
 *   <li>Threading: may be called concurrently for different nodes; must not change session state.
 *   <li>Null: a null status counts as success.
 *   <li>Reuse: registered with a {@link NodeLocality}, its answer for a task may be reused for
 *       later tasks of the same key on a node whose state did not change; without one, it is called
 *       for every task and node (and allocate reuses no answers at all).
 * </ul>
 */
@ConsumerType
@FunctionalInterface
public interface PredicateFn {
  Status check(TaskInfo task, NodeInfo node);
}
