package dev.caldera.api.extension;

import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/** Whether the queue may reclaim for these tasks. All plugins must agree. */
@ConsumerType
@FunctionalInterface
public interface PreemptiveFn {
  boolean test(QueueInfo queue, List<TaskInfo> tasks);
}
