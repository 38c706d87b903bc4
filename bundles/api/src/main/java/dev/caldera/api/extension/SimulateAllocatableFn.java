package dev.caldera.api.extension;

import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import org.osgi.annotation.versioning.ConsumerType;

/** {@link AllocatableFn} against simulated state in {@code state}. */
@ConsumerType
@FunctionalInterface
public interface SimulateAllocatableFn {
  boolean test(CycleState state, QueueInfo queue, TaskInfo task);
}
