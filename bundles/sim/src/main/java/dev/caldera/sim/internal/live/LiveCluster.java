package dev.caldera.sim.internal.live;

import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.ClusterSource;
import dev.caldera.framework.ClusterWriter;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.loop.QueueLifecycle;
import dev.caldera.sim.EmbeddedCluster;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * The embedded cluster as {@code caldera run} uses it: the workload (if any) moves on just before
 * each snapshot, and learns what each session bound and evicted. The loop calls snapshot and apply
 * from one thread, in turn, so the workload never changes the cluster under a session.
 */
public final class LiveCluster implements ClusterSource, ClusterWriter, QueueLifecycle {

  private final EmbeddedCluster cluster;
  private final WorkloadGenerator workload;
  private final Supplier<Instant> clock;

  /**
   * @param workload null for a cluster that changes only by the scheduler's decisions
   * @param clock the time sessions see (a scenario's fixed {@code now}, or the wall clock)
   */
  public LiveCluster(EmbeddedCluster cluster, WorkloadGenerator workload, Supplier<Instant> clock) {
    this.cluster = cluster;
    this.workload = workload;
    this.clock = clock;
  }

  @Override
  public synchronized ClusterSnapshot snapshot() {
    Instant now = clock.get();
    if (workload != null) {
      workload.tick(cluster, now);
    }
    return cluster.snapshot(now);
  }

  /** The cluster as it is now, without moving the workload on (for a snapshot export). */
  public synchronized ClusterSnapshot view() {
    return cluster.snapshot(clock.get());
  }

  @Override
  public synchronized void apply(SessionResult result) {
    cluster.apply(result);
    if (workload != null) {
      workload.applied(result, clock.get());
    }
  }

  @Override
  public synchronized Outcome apply(String name, Command command) {
    return cluster.apply(name, command);
  }

  /** The cluster behind. */
  public EmbeddedCluster cluster() {
    return cluster;
  }
}
