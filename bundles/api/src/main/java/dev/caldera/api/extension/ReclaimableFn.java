package dev.caldera.api.extension;

import dev.caldera.api.info.TaskInfo;
import java.util.List;

/** Which of the candidates (other queues) the reclaimer may evict; see {@link Victims}. */
@FunctionalInterface
public interface ReclaimableFn {
  Victims select(TaskInfo reclaimer, List<TaskInfo> candidates);
}
