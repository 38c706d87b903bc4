package dev.caldera.api.extension;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Removes {@code taskToRemove} on {@code node} from the simulated state of {@code taskToSchedule}
 * (a dry run that changes no session state).
 *
 * <ul>
 *   <li>Called by: {@code preempt}'s topology-aware dry run, for each victim it tries.
 *   <li>Combined: every enabled plugin is called; the first failure aborts the dry run.
 *   <li>Gate: {@code enablePreemptable} or {@code enabledAllocatable}.
 *   <li>Threading: on the session's thread; {@code state} is the task's own.
 *   <li>Null: a null status counts as success.
 * </ul>
 */
@ConsumerType
@FunctionalInterface
public interface SimulateRemoveTaskFn {
  Status remove(CycleState state, TaskInfo taskToSchedule, TaskInfo taskToRemove, NodeInfo node);
}
