package dev.caldera.api.extension;

import dev.caldera.api.info.TaskInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Told when a task starts or stops counting as placed: allocate, pipeline and un-evict call {@link
 * #allocated}; evict, un-allocate and un-pipeline call {@link #deallocated} (the framework's {@code
 * Ledger} applies every change and tells the handlers).
 *
 * <ul>
 *   <li>Called by: every action that changes placements ({@code allocate}, {@code backfill}, {@code
 *       preempt}, {@code reclaim}, {@code shuffle}), directly or through a statement, its commit or
 *       discard.
 *   <li>Combined: every handler, in the order plugins were opened; an {@link #allocated} failure
 *       rolls the placement back and is the operation's answer.
 *   <li>Gate: none (always on).
 *   <li>Threading: on the session's thread.
 *   <li>Null: a null status from {@link #allocated} counts as success.
 * </ul>
 *
 * <p>A plugin does not need a handler to know which pods are counted where: the framework keeps
 * each node's {@link dev.caldera.api.info.NodeInfo#pods()} (and its pods with (anti-)affinity
 * terms) and the session's topology counts ({@link dev.caldera.api.Session#topology()}) up to date
 * before the handlers are told.
 */
@ConsumerType
public interface EventHandler {

  /** The task now counts as placed on its node. A failure rolls the operation back. */
  default Status allocated(TaskInfo task) {
    return Status.OK;
  }

  /** The task no longer counts as placed. */
  default void deallocated(TaskInfo task) {}
}
