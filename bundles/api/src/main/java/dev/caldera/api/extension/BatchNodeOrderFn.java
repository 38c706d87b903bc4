package dev.caldera.api.extension;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Scores candidate nodes together (normalised scores): adds each node's score to {@code scores[i]}.
 * A failure discards the batch scores of all plugins for this task.
 */
@ConsumerType
@FunctionalInterface
public interface BatchNodeOrderFn {
  Status score(TaskInfo task, List<NodeInfo> nodes, double[] scores);
}
