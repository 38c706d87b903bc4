package dev.caldera.api.extension;

import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;

/** {@link AllocatableFn} against simulated state in {@code state}. */
@FunctionalInterface
public interface SimulateAllocatableFn {
  boolean test(CycleState state, QueueInfo queue, TaskInfo task);
}
