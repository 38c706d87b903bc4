package dev.caldera.api.extension;

import dev.caldera.api.info.QueueInfo;

/** Whether a queue uses more than it should; one plugin saying so skips the queue. */
@FunctionalInterface
public interface OverusedFn {
  boolean test(QueueInfo queue);
}
