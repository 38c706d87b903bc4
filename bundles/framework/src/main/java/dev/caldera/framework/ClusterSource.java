package dev.caldera.framework;

/**
 * Where sessions read the cluster: the embedded in-memory cluster of the simulator, or a real
 * cluster through informers. Each call returns a consistent snapshot; it never changes under a
 * running session.
 */
public interface ClusterSource {

  /** A consistent snapshot of the cluster now. */
  ClusterSnapshot snapshot();

  /**
   * Whether a session may run on this source now; the loop asks right before each {@link
   * #snapshot()} and runs no session unless the answer is {@link SourceStatus#ready()}. May block
   * briefly (e.g. until a cache has caught up with what its informers listed). An in-memory source
   * is always ready.
   */
  default SourceStatus status() {
    return SourceStatus.ready();
  }
}
