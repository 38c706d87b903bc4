package dev.caldera.api.extension;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Scores one node for a task; scores of all plugins add up. May be called concurrently for
 * different nodes.
 */
@ConsumerType
@FunctionalInterface
public interface NodeOrderFn {
  double score(TaskInfo task, NodeInfo node);
}
