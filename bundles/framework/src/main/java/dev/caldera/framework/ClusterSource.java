package dev.caldera.framework;

/**
 * Where sessions read the cluster: the embedded in-memory cluster of the simulator, or a real
 * cluster through informers. Each call returns a consistent snapshot; it never changes under a
 * running session.
 */
public interface ClusterSource {

  /** A consistent snapshot of the cluster now. */
  ClusterSnapshot snapshot();
}
