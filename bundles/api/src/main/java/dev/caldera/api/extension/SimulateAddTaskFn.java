package dev.caldera.api.extension;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import org.osgi.annotation.versioning.ConsumerType;

/** Adds {@code taskToAdd} on {@code node} to the simulated state of {@code taskToSchedule}. */
@ConsumerType
@FunctionalInterface
public interface SimulateAddTaskFn {
  Status add(CycleState state, TaskInfo taskToSchedule, TaskInfo taskToAdd, NodeInfo node);
}
