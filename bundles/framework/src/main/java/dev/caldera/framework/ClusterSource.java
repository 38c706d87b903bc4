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

  /**
   * Registers the listener the source calls when something arrives that a session may act on: a
   * pod, pod group or queue added or changed in what it asks for, a pod deleted or finished, a node
   * added, changed or removed, a list delivered after a reconnect. The loop then starts a session
   * after its debounce instead of waiting out its period. The source calls it from any thread, as
   * often as things arrive (it is cheap), and never for the echo of the scheduler's own writes (a
   * bind, a status or condition it wrote), which would start sessions with nothing to do.
   *
   * <p>Replaces any listener registered before; null removes it. A source that never calls it (the
   * default) is scheduled every period.
   */
  default void onWorkArrived(Runnable listener) {}
}
