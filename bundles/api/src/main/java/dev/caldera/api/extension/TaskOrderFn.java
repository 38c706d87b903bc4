package dev.caldera.api.extension;

import dev.caldera.api.info.TaskInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Orders tasks: negative puts {@code l} first, positive {@code r}, 0 lets the next plugin decide.
 *
 * <ul>
 *   <li>Called by: {@code allocate}, {@code backfill} and {@code preempt} (which task of a job goes
 *       next), and the victim order (within a job, the last task in order is evicted first).
 *   <li>Combined: tiers in order, plugins in conf order; the first non-zero answer wins; when all
 *       answer 0, the pod index, then creation time, then UID decide.
 *   <li>Gate: {@code enableTaskOrder}.
 *   <li>Threading: on the session's thread. Must be a consistent order.
 * </ul>
 */
@ConsumerType
@FunctionalInterface
public interface TaskOrderFn {
  int compare(TaskInfo l, TaskInfo r);
}
