package dev.caldera.api.extension;

import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import org.osgi.annotation.versioning.ConsumerType;

/** Whether the queue may take this task now. All plugins must agree. */
@ConsumerType
@FunctionalInterface
public interface AllocatableFn {
  boolean test(QueueInfo queue, TaskInfo task);
}
