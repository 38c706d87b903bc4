package dev.caldera.api.extension;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;

/** {@link PredicateFn} against simulated state in {@code state}. */
@FunctionalInterface
public interface SimulatePredicateFn {
  Status check(CycleState state, TaskInfo task, NodeInfo node);
}
