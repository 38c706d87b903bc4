package dev.caldera.api.extension;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;

/** Adds {@code taskToAdd} on {@code node} to the simulated state of {@code taskToSchedule}. */
@FunctionalInterface
public interface SimulateAddTaskFn {
  Status add(CycleState state, TaskInfo taskToSchedule, TaskInfo taskToAdd, NodeInfo node);
}
