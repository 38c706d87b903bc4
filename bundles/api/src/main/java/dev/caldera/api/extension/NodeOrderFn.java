package dev.caldera.api.extension;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;

/**
 * Scores one node for a task; scores of all plugins add up. May be called concurrently for
 * different nodes.
 */
@FunctionalInterface
public interface NodeOrderFn {
  double score(TaskInfo task, NodeInfo node);
}
