package dev.caldera.api.extension;

import dev.caldera.api.info.QueueInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Orders queues: negative puts {@code l} first, positive {@code r}, 0 lets the next plugin decide.
 *
 * <ul>
 *   <li>Called by: {@code enqueue}, {@code allocate}, {@code backfill}, {@code preempt} and {@code
 *       reclaim} (which queue goes next), and the victim order when no {@link VictimQueueOrderFn}
 *       decides.
 *   <li>Combined: tiers in order, plugins in conf order; the first non-zero answer wins; when all
 *       answer 0, creation time then name decide.
 *   <li>Gate: {@code enableQueueOrder}.
 *   <li>Threading: on the session's thread. Must be a consistent order.
 * </ul>
 */
@ConsumerType
@FunctionalInterface
public interface QueueOrderFn {
  int compare(QueueInfo l, QueueInfo r);
}
