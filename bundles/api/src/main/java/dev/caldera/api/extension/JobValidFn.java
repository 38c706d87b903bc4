package dev.caldera.api.extension;

import dev.caldera.api.info.JobInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Checks a job before actions consider it (gang: {@code minMember} can be met).
 *
 * <ul>
 *   <li>Called by: {@code allocate}, {@code backfill}, {@code preempt} and {@code reclaim}.
 *   <li>Combined: tiers in order; the first failing result is the answer.
 *   <li>Gate: none (always on).
 *   <li>Threading: on the session's thread.
 *   <li>Null: null, or a result with {@code pass}, means valid.
 * </ul>
 */
@ConsumerType
@FunctionalInterface
public interface JobValidFn {
  ValidationResult validate(JobInfo job);
}
