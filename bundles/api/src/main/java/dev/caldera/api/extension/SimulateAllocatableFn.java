package dev.caldera.api.extension;

import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * {@link AllocatableFn} against the simulated state in {@code state}.
 *
 * <ul>
 *   <li>Called by: {@code preempt}'s topology-aware dry run.
 *   <li>Combined: AND over every enabled plugin.
 *   <li>Gate: {@code enabledAllocatable}.
 *   <li>Threading: on the session's thread.
 * </ul>
 */
@ConsumerType
@FunctionalInterface
public interface SimulateAllocatableFn {
  boolean test(CycleState state, QueueInfo queue, TaskInfo task);
}
