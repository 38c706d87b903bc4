package dev.caldera.api.extension;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import java.util.List;

/**
 * Scores candidate nodes together (normalised scores): adds each node's score to {@code scores[i]}.
 * A failure discards the batch scores of all plugins for this task.
 */
@FunctionalInterface
public interface BatchNodeOrderFn {
  Status score(TaskInfo task, List<NodeInfo> nodes, double[] scores);
}
