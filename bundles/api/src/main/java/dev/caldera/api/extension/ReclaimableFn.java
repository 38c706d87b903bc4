package dev.caldera.api.extension;

import dev.caldera.api.info.TaskInfo;
import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/** Which of the candidates (other queues) the reclaimer may evict; see {@link Victims}. */
@ConsumerType
@FunctionalInterface
public interface ReclaimableFn {
  Victims select(TaskInfo reclaimer, List<TaskInfo> candidates);
}
