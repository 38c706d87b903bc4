package dev.caldera.api.extension;

import dev.caldera.api.info.JobInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Told that a job was admitted (Inqueue), so plugins count its minimum against their quotas.
 *
 * <ul>
 *   <li>Called by: {@code enqueue}, after {@link JobEnqueueableFn} admitted the job.
 *   <li>Combined: every enabled plugin is told, in tier and conf order.
 *   <li>Gate: {@code enableJobEnqueued}.
 *   <li>Threading: on the session's thread.
 * </ul>
 */
@ConsumerType
@FunctionalInterface
public interface JobEnqueuedFn {
  void enqueued(JobInfo job);
}
