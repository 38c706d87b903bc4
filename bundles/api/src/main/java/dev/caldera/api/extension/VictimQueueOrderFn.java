package dev.caldera.api.extension;

import dev.caldera.api.info.QueueInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Orders victims' queues for eviction relative to the evicting queue: negative evicts from {@code
 * l} first; 0 lets the next plugin decide.
 */
@ConsumerType
@FunctionalInterface
public interface VictimQueueOrderFn {
  int compare(QueueInfo l, QueueInfo r, QueueInfo evictor);
}
