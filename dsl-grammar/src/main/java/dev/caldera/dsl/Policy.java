package dev.caldera.dsl;

import dev.caldera.api.extension.PreemptiveFn;
import dev.caldera.api.extension.ReclaimableFn;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import org.osgi.annotation.versioning.ProviderType;

/**
 * A compiled policy. Immutable and shareable: bind it to a {@link PolicyContext} for each session
 * with {@link #reclaimable} and {@link #preemptive}.
 */
@ProviderType
public interface Policy {

  /** The name after {@code policy}. */
  String name();

  /** The file it was compiled from. */
  String fileName();

  /** Whether it has a {@code reclaim} block. */
  boolean hasReclaim();

  /** Whether it has a {@code preemptive} block. */
  boolean hasPreemptive();

  /**
   * Whether it reads the queues' live allocation ({@code queue.allocated}, {@code queue.share}), so
   * that the context must track allocations during the session.
   */
  boolean usesQueueAllocation();

  /**
   * The reclaim rules as a {@link ReclaimableFn}: for each candidate, in order, the first matching
   * rule (else {@code otherwise}) decides; the allowed candidates are returned with a permit (an
   * empty permit when none is allowed). The function is bound to {@code context}, is meant for one
   * session, and is not thread-safe; evaluating it allocates nothing but the returned list.
   *
   * @throws IllegalStateException without a reclaim block
   */
  ReclaimableFn reclaimable(PolicyContext context);

  /**
   * The preemptive rules as a {@link PreemptiveFn}: true when the rules allow every task (a call
   * without tasks asks about the queue alone). Bound to {@code context}, not thread-safe.
   *
   * @throws IllegalStateException without a preemptive block
   */
  PreemptiveFn preemptive(PolicyContext context);

  /**
   * Which reclaim rule decides whether {@code reclaimer} may reclaim {@code candidate}, and why.
   */
  Decision explainReclaim(PolicyContext context, TaskInfo reclaimer, TaskInfo candidate);

  /** Which preemptive rule decides whether {@code queue} may reclaim for {@code task}, and why. */
  Decision explainPreemptive(PolicyContext context, QueueInfo queue, TaskInfo task);
}
