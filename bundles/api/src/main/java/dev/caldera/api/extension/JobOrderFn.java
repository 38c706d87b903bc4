package dev.caldera.api.extension;

import dev.caldera.api.info.JobInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Orders jobs: negative puts {@code l} first, positive {@code r}, 0 lets the next plugin decide.
 *
 * <ul>
 *   <li>Called by: {@code enqueue}, {@code allocate}, {@code backfill} (which job goes next), and
 *       {@code preempt}/{@code reclaim} through the victim order (which job loses first).
 *   <li>Combined: tiers in order, plugins in conf order; the first non-zero answer wins; when all
 *       answer 0, creation time then UID decide.
 *   <li>Gate: {@code enableJobOrder}.
 *   <li>Threading: on the session's thread. Must be a consistent order (antisymmetric, transitive).
 * </ul>
 */
@ConsumerType
@FunctionalInterface
public interface JobOrderFn {
  int compare(JobInfo l, JobInfo r);
}
