package dev.caldera.framework;

/**
 * Applies a session's decisions to the cluster: binds, evictions, pod group and queue status, pod
 * conditions and events. Binds and evictions are idempotent; a failed bind leaves the pod pending
 * for the next session.
 */
public interface ClusterWriter {

  /** Applies {@code result}. */
  void apply(SessionResult result);
}
