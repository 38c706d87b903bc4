package dev.caldera.api.extension;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * {@link PredicateFn} against the simulated state in {@code state}.
 *
 * <ul>
 *   <li>Called by: {@code preempt}'s topology-aware dry run.
 *   <li>Combined: every enabled plugin must pass; the first failure is the answer (named after its
 *       plugin).
 *   <li>Gate: {@code enablePredicate}.
 *   <li>Threading: on the session's thread.
 *   <li>Null: a null status counts as success.
 * </ul>
 */
@ConsumerType
@FunctionalInterface
public interface SimulatePredicateFn {
  Status check(CycleState state, TaskInfo task, NodeInfo node);
}
