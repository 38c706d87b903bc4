package dev.caldera.api.extension;

import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Whether the queue may take this task now (queue capacity plugins: capacity, proportion).
 *
 * <ul>
 *   <li>Called by: {@code allocate} (before placing each task) and {@code preempt} (before
 *       preempting for a task).
 *   <li>Combined: AND over every enabled plugin of every tier; the first {@code false} rejects.
 *   <li>Gate: {@code enabledAllocatable}.
 *   <li>Threading: on the session's thread.
 * </ul>
 */
@ConsumerType
@FunctionalInterface
public interface AllocatableFn {
  boolean test(QueueInfo queue, TaskInfo task);
}
