package dev.caldera.api.extension;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Removes {@code taskToRemove} on {@code node} from the simulated state of {@code taskToSchedule}.
 */
@ConsumerType
@FunctionalInterface
public interface SimulateRemoveTaskFn {
  Status remove(CycleState state, TaskInfo taskToSchedule, TaskInfo taskToRemove, NodeInfo node);
}
