package dev.caldera.api.extension;

import dev.caldera.api.info.QueueInfo;
import org.osgi.annotation.versioning.ConsumerType;

/** Whether a queue uses more than it should; one plugin saying so skips the queue. */
@ConsumerType
@FunctionalInterface
public interface OverusedFn {
  boolean test(QueueInfo queue);
}
