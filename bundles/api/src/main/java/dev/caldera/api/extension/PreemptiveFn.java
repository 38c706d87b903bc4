package dev.caldera.api.extension;

import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Whether the queue may reclaim for these tasks.
 *
 * <ul>
 *   <li>Called by: {@code reclaim}, before looking for victims in other queues.
 *   <li>Combined: AND over every enabled plugin of every tier.
 *   <li>Gate: {@code enablePreemptive}.
 *   <li>Threading: on the session's thread.
 * </ul>
 */
@ConsumerType
@FunctionalInterface
public interface PreemptiveFn {
  boolean test(QueueInfo queue, List<TaskInfo> tasks);
}
