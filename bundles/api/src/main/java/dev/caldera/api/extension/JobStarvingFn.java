package dev.caldera.api.extension;

import dev.caldera.api.info.JobInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Whether a job still needs resources, so that it may preempt or reclaim for them.
 *
 * <ul>
 *   <li>Called by: {@code preempt} and {@code reclaim}.
 *   <li>Combined: AND inside the first tier that has an enabled function; later tiers are not
 *       asked. A session with no function answers false.
 *   <li>Gate: {@code enableJobStarving}.
 *   <li>Threading: on the session's thread.
 * </ul>
 */
@ConsumerType
@FunctionalInterface
public interface JobStarvingFn {
  boolean test(JobInfo job);
}
