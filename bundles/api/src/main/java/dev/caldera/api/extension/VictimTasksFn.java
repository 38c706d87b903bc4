package dev.caldera.api.extension;

import dev.caldera.api.info.TaskInfo;
import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Picks tasks the {@code shuffle} action should evict (rescheduling, e.g. by node usage).
 *
 * <ul>
 *   <li>Called by: {@code shuffle}, with every running task.
 *   <li>Combined: the union of every enabled plugin's picks inside the first tier whose union is
 *       not empty. A plugin may register several functions for this point.
 *   <li>Gate: {@code enabledVictim}.
 *   <li>Threading: on the session's thread.
 *   <li>Null: null picks nothing.
 * </ul>
 */
@ConsumerType
@FunctionalInterface
public interface VictimTasksFn {
  List<TaskInfo> select(List<TaskInfo> tasks);
}
