package dev.caldera.kube;

import dev.caldera.framework.SourceStatus;
import dev.caldera.kube.internal.LeaseElector;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Objects;

/**
 * Leader election among scheduler replicas on a {@code coordination.k8s.io/v1} Lease (fabric8's
 * leader elector). Only the leader schedules: the run loop asks {@link #isLeader()} before each
 * session, and {@link KubeCluster#leaderElection} also closes the cluster's write gate whenever
 * this replica is not the leader.
 *
 * <p>{@link #isLeader()} turns false once the lease has not been renewed for the renew deadline,
 * which is shorter than the lease duration: a replica that loses the lease stops before another one
 * may take it over. A replica that lost the lease stands again. {@link #close()} releases the lease
 * so another replica takes over at once.
 */
public final class LeaderElection implements AutoCloseable {

  /** Lease location and timings (Kubernetes' defaults: 15 s, 10 s, 2 s). */
  public record Options(
      String namespace,
      String leaseName,
      Duration leaseDuration,
      Duration renewDeadline,
      Duration retryPeriod) {

    public Options {
      Objects.requireNonNull(namespace, "namespace");
      Objects.requireNonNull(leaseName, "leaseName");
      if (!(retryPeriod.compareTo(renewDeadline) < 0
          && renewDeadline.compareTo(leaseDuration) < 0)) {
        throw new IllegalArgumentException(
            "need retryPeriod < renewDeadline < leaseDuration, got "
                + retryPeriod
                + ", "
                + renewDeadline
                + ", "
                + leaseDuration);
      }
    }

    /** The lease {@code caldera-scheduler} in {@code namespace} with Kubernetes' timings. */
    public static Options defaults(String namespace) {
      return new Options(
          namespace,
          "caldera-scheduler",
          Duration.ofSeconds(15),
          Duration.ofSeconds(10),
          Duration.ofSeconds(2));
    }
  }

  /** Hears about leadership changes; called on the elector's thread, must not block. */
  public interface Listener {
    /** This replica became the leader. */
    default void startedLeading() {}

    /** This replica stopped being the leader. */
    default void stoppedLeading() {}

    /** Another (or this) replica was seen holding the lease; null when released. */
    default void newLeader(String identity) {}
  }

  private final LeaseElector elector;

  private LeaderElection(LeaseElector elector) {
    this.elector = elector;
  }

  static LeaderElection start(
      KubernetesClient client,
      Options options,
      KubeOptions kube,
      Listener listener,
      Runnable serverUnreachable) {
    LeaseElector elector =
        new LeaseElector(
            client,
            options.namespace(),
            options.leaseName(),
            kube.identity(),
            options.leaseDuration(),
            options.renewDeadline(),
            options.retryPeriod(),
            new LeaseElector.Callbacks() {
              @Override
              public void startedLeading() {
                listener.startedLeading();
              }

              @Override
              public void stoppedLeading() {
                listener.stoppedLeading();
              }

              @Override
              public void newLeader(String identity) {
                listener.newLeader(identity);
              }

              @Override
              public void serverUnreachable() {
                serverUnreachable.run();
              }
            });
    elector.start();
    return new LeaderElection(elector);
  }

  /** Whether this replica holds the lease and renewed it within the renew deadline. */
  public boolean isLeader() {
    return elector.isLeader();
  }

  /** The identity of the leader last observed, or null. */
  public String leader() {
    return elector.leader();
  }

  /** This replica's identity. */
  public String identity() {
    return elector.identity();
  }

  /**
   * Why this replica does not schedule while it is not the leader: standing by while another
   * replica holds the lease (or while campaigning), not ready while the lease cannot even be read
   * or written (RBAC, API errors), so that a cluster where no replica can lead is not all green.
   */
  public SourceStatus status() {
    if (isLeader()) {
      return SourceStatus.ready();
    }
    String failure = elector.failure();
    if (failure != null) {
      return SourceStatus.notReady(failure);
    }
    String expired = elector.expiredHolder();
    if (expired != null) {
      // Nobody leads until this replica's next attempt takes the lease: not all green meanwhile.
      return SourceStatus.notReady(
          "nobody leads: the lease "
              + elector.lease()
              + " expired without "
              + expired
              + " renewing it; taking it over");
    }
    String holder = elector.leader();
    return SourceStatus.standby(
        holder == null || holder.isEmpty() || holder.equals(elector.identity())
            ? "campaigning for the lease " + elector.lease()
            : "the leader is " + holder + " (lease " + elector.lease() + ")");
  }

  /** Failed attempts to read, take or renew the lease since start. */
  public long errors() {
    return elector.errors();
  }

  /** Stops campaigning and releases the lease if this replica holds it. */
  @Override
  public void close() {
    elector.close();
  }
}
