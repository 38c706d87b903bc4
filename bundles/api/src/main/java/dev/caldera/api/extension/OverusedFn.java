package dev.caldera.api.extension;

import dev.caldera.api.info.QueueInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Whether a queue uses more than it should; such a queue is skipped.
 *
 * <ul>
 *   <li>Called by: {@code allocate} and {@code reclaim}, per queue.
 *   <li>Combined: OR: one enabled plugin saying so is enough.
 *   <li>Gate: {@code enabledOverused}.
 *   <li>Threading: on the session's thread.
 * </ul>
 */
@ConsumerType
@FunctionalInterface
public interface OverusedFn {
  boolean test(QueueInfo queue);
}
