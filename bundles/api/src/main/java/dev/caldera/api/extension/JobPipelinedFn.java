package dev.caldera.api.extension;

import dev.caldera.api.info.JobInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Votes on whether a job counts as pipelined: placed on resources that are being released.
 *
 * <ul>
 *   <li>Called by: {@code allocate}, {@code preempt} and {@code reclaim}, when deciding whether the
 *       job's pipelined placements are kept.
 *   <li>Combined: as {@link JobEnqueueableFn}: a reject anywhere rejects at once, a permit ends the
 *       walk at the end of its tier, all abstaining permits.
 *   <li>Gate: {@code enableJobPipelined}.
 *   <li>Threading: on the session's thread.
 *   <li>Null: a null vote abstains.
 * </ul>
 */
@ConsumerType
@FunctionalInterface
public interface JobPipelinedFn {
  Vote vote(JobInfo job);
}
