package dev.caldera.api.extension;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Whether a task may run on a node, ignoring resources (the actions check those). May be called
 * concurrently for different nodes; must not change session state.
 */
@ConsumerType
@FunctionalInterface
public interface PredicateFn {
  Status check(TaskInfo task, NodeInfo node);
}
