package dev.caldera.framework;

import java.time.Duration;

/**
 * Applies a session's decisions to the cluster: binds, evictions, pod group and queue status, pod
 * conditions and events. Binds and evictions are idempotent; a failed bind leaves the pod pending
 * for the next session.
 */
public interface ClusterWriter {

  /** Applies {@code result}. */
  void apply(SessionResult result);

  /**
   * Offered each bind as the session commits it, before the session ends (as Volcano's cache
   * dispatches a bind when a statement commits): a writer that sends it now returns true, and the
   * result given to {@link #apply} then leaves it out. The default keeps every bind for {@link
   * #apply}, as an in-memory cluster that changes only between sessions must.
   */
  default boolean bindAtCommit(SessionResult.Bind bind) {
    return false;
  }

  /**
   * What the cluster accepted so far, for a writer that applies decisions asynchronously and may
   * see them refused (a real API server); null when every applied decision takes effect at once, as
   * in an in-memory cluster. The loop's bind and eviction counters report these figures when given.
   */
  default Accepted accepted() {
    return null;
  }

  /**
   * Waits, at most {@code timeout}, until the cluster has answered every decision applied so far,
   * so that {@link #accepted()} counts them all: true when none is left unanswered. A writer whose
   * decisions take effect at once has nothing to wait for.
   */
  default boolean awaitApplied(Duration timeout) throws InterruptedException {
    return true;
  }

  /** Counts since the writer started. */
  record Accepted(long binds, long evictions) {}
}
