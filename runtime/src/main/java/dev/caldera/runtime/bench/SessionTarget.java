package dev.caldera.runtime.bench;

import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.SessionResult;

/** A cluster the benchmark runs sessions against: it gives snapshots and takes decisions. */
public interface SessionTarget {

  /** The cluster as the next session sees it. */
  ClusterSnapshot snapshot();

  /** Applies one session's decisions before the next snapshot. */
  void apply(SessionResult result);
}
