package dev.caldera.api.extension;

import dev.caldera.api.info.QueueInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Orders victims' queues for eviction relative to the evicting queue: negative evicts from {@code
 * l} first; 0 lets the next plugin decide.
 *
 * <ul>
 *   <li>Called by: {@code preempt} and {@code reclaim} through the victim order, for victims of
 *       different queues.
 *   <li>Combined: tiers in order; the first non-zero answer wins; else the reverse of the queue
 *       order.
 *   <li>Gate: none (always on).
 *   <li>Threading: on the session's thread.
 * </ul>
 */
@ConsumerType
@FunctionalInterface
public interface VictimQueueOrderFn {
  int compare(QueueInfo l, QueueInfo r, QueueInfo evictor);
}
