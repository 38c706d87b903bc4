package dev.caldera.api.extension;

import dev.caldera.api.info.JobInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Votes on admitting a Pending job into its queue (Volcano's {@code JobEnqueueable}).
 *
 * <ul>
 *   <li>Called by: {@code enqueue}, once per Pending job in job order.
 *   <li>Combined: tiers in order; a {@link Vote#REJECT} anywhere rejects at once; a {@link
 *       Vote#PERMIT} admits the job at the end of its tier; when every plugin abstains the job is
 *       admitted.
 *   <li>Gate: {@code enableJobEnqueued}.
 *   <li>Threading: on the session's thread.
 *   <li>Null: a null vote abstains.
 * </ul>
 */
@ConsumerType
@FunctionalInterface
public interface JobEnqueueableFn {
  Vote vote(JobInfo job);
}
