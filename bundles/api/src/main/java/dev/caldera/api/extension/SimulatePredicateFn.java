package dev.caldera.api.extension;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import org.osgi.annotation.versioning.ConsumerType;

/** {@link PredicateFn} against simulated state in {@code state}. */
@ConsumerType
@FunctionalInterface
public interface SimulatePredicateFn {
  Status check(CycleState state, TaskInfo task, NodeInfo node);
}
