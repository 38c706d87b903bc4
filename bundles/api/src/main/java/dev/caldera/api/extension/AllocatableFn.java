package dev.caldera.api.extension;

import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;

/** Whether the queue may take this task now. All plugins must agree. */
@FunctionalInterface
public interface AllocatableFn {
  boolean test(QueueInfo queue, TaskInfo task);
}
