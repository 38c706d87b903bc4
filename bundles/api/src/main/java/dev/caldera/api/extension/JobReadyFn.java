package dev.caldera.api.extension;

import dev.caldera.api.info.JobInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Whether a job may be bound now (gang: enough tasks allocated).
 *
 * <ul>
 *   <li>Called by: {@code allocate} (commit or discard the job's statement) and the session's
 *       immediate allocation (bind the job's allocated tasks).
 *   <li>Combined: AND over every enabled plugin of every tier.
 *   <li>Gate: {@code enableJobReady}.
 *   <li>Threading: on the session's thread.
 * </ul>
 */
@ConsumerType
@FunctionalInterface
public interface JobReadyFn {
  boolean test(JobInfo job);
}
