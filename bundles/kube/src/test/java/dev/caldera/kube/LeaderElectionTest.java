package dev.caldera.kube;

import static dev.caldera.kube.MockApi.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.framework.Scheduler;
import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.framework.SourceStatus;
import dev.caldera.framework.conf.SchedulerConf;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two scheduler replicas with leader election against one mock API server (short lease times: 1.5 s
 * lease, 1 s renew deadline, 100 ms retry). Binding is emulated by expectations, see {@link
 * MockApi}.
 */
class LeaderElectionTest {

  private static final LeaderElection.Options LEASE =
      new LeaderElection.Options(
          "kube-system",
          "caldera-scheduler",
          Duration.ofMillis(1500),
          Duration.ofMillis(1000),
          Duration.ofMillis(100));

  private final MockApi api = new MockApi();
  private final Scheduler scheduler = new Scheduler(new ServiceLoaderPluginRegistry());

  @AfterEach
  void stop() {
    api.close();
  }

  /** One replica: its cluster, its election, its loop. */
  private final class Replica implements AutoCloseable {
    final KubeCluster cluster;
    final LeaderElection election;
    final KubeRunner runner;
    final List<String> heard = new CopyOnWriteArrayList<>();

    Replica(String identity) throws Exception {
      cluster = api.cluster(identity);
      election =
          cluster.leaderElection(
              LEASE,
              new LeaderElection.Listener() {
                @Override
                public void startedLeading() {
                  heard.add("started");
                }

                @Override
                public void stoppedLeading() {
                  heard.add("stopped");
                }
              });
      SchedulerConf conf = SchedulerConf.parse(SchedulerConf.DEFAULT_CONF, "default");
      runner =
          new KubeRunner(cluster, scheduler, () -> conf, Duration.ofMillis(50), election::isLeader);
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      runner.start();
    }

    @Override
    public void close() {
      runner.close();
      election.close();
      cluster.close();
    }
  }

  @Test
  void twoReplicas_onlyTheLeaderBinds_andTheOtherTakesOverWhenItLeaves() throws Exception {
    api.node("n1", "16", "32Gi");
    api.queue("default", 1);
    for (int i = 0; i < 4; i++) {
      api.pod("ns1", "first-" + i).requests("1", "1Gi").create();
    }
    try (Replica a = new Replica("replica-a");
        Replica b = new Replica("replica-b")) {
      await("a leader", () -> a.election.isLeader() || b.election.isLeader());
      Replica leader = a.election.isLeader() ? a : b;
      Replica follower = leader == a ? b : a;
      await(
          "the first pods bound",
          () ->
              List.of(0, 1, 2, 3).stream().allMatch(i -> api.nodeOf("ns1", "first-" + i) != null));
      assertThat(follower.election.isLeader()).isFalse();
      assertThat(follower.election.leader()).isEqualTo(leader.election.identity());
      assertThat(leader.cluster.counters().bindsSucceeded()).isEqualTo(4);
      assertThat(follower.cluster.counters().bindsSucceeded()).isZero();
      assertThat(follower.runner.sessions()).isZero();
      // Standing by is said, not hidden: ready to take over, naming the leader.
      SourceStatus standby = follower.cluster.status();
      assertThat(standby.state()).isEqualTo(SourceStatus.State.STANDBY);
      assertThat(standby.reason()).contains("the leader is " + leader.election.identity());
      assertThat(leader.cluster.status().isReady()).isTrue();

      // The leader leaves and releases the lease: the follower takes over well within a lease.
      leader.close();
      long left = System.nanoTime();
      await("the follower leading", Duration.ofSeconds(5), follower.election::isLeader);
      // The lease was released: no waiting for it to expire.
      assertThat(Duration.ofNanos(System.nanoTime() - left)).isLessThan(LEASE.leaseDuration());
      for (int i = 0; i < 2; i++) {
        api.pod("ns1", "second-" + i).requests("1", "1Gi").create();
      }
      await(
          "the second pods bound",
          () -> api.nodeOf("ns1", "second-0") != null && api.nodeOf("ns1", "second-1") != null);
      assertThat(follower.cluster.counters().bindsSucceeded()).isEqualTo(2);
      for (String p : List.of("first-0", "first-1", "first-2", "first-3", "second-0", "second-1")) {
        assertThat(api.bindings("ns1", p)).as(p).isEqualTo(1);
      }
      assertThat(follower.heard).contains("started");
    }
  }

  @Test
  void aReplicaThatLosesTheLease_stopsBeforeItExpires() throws Exception {
    try (Replica a = new Replica("replica-a")) {
      await("leading", a.election::isLeader);
      // Another holder takes the lease over (as after a partition); a cannot renew any more.
      steal("intruder");
      long stolen = System.nanoTime();
      await("a stops leading", Duration.ofSeconds(5), () -> !a.election.isLeader());
      // a's last renewal was before the steal, so a stops before the lease it renewed expires
      // (LeaseElectorTest pins the exact deadline with a fake clock).
      assertThat(Duration.ofNanos(System.nanoTime() - stolen)).isLessThan(LEASE.leaseDuration());
      await("the callback", () -> a.heard.contains("stopped"));
      assertThat(a.election.leader()).isEqualTo("intruder");
    }
  }

  /** Writes another holder into the lease, retrying when a renewal of a's got there first. */
  private void steal(String holder) {
    for (int attempt = 0; ; attempt++) {
      try {
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        api.kubectl
            .leases()
            .inNamespace("kube-system")
            .withName("caldera-scheduler")
            .edit(
                (Lease l) -> {
                  l.getSpec().setHolderIdentity(holder);
                  l.getSpec().setRenewTime(now);
                  l.getSpec().setLeaseDurationSeconds(30);
                  return l;
                });
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == 20) {
          throw e;
        }
      }
    }
  }

  @Test
  void aLeaderThatCannotRenew_stopsWithinTheRenewDeadline() throws Exception {
    try (Replica a = new Replica("replica-a")) {
      await("leading", a.election::isLeader);
      // Every lease request fails from now on: the API server is unreachable for a.
      api.dispatcher.failAll("/leases/caldera-scheduler");
      long cut = System.nanoTime();
      await("a stops leading", Duration.ofSeconds(5), () -> !a.election.isLeader());
      Duration stoppedAfter = Duration.ofNanos(System.nanoTime() - cut);
      // Within the renew deadline (1 s) of the last renewal, so before the lease (1.5 s) expires
      // for the others.
      assertThat(stoppedAfter).isLessThan(LEASE.leaseDuration());
      assertThat(a.cluster.counters().bindsSucceeded()).isZero();
      api.dispatcher.clearFaults();
    }
  }

  @Test
  void aReplicaDeniedTheLease_isNotReady_andSaysWhy() throws Exception {
    // As with a Role that lacks a verb the lease needs: every lease request is forbidden.
    api.dispatcher.fail("GET", "/leases/caldera-scheduler", 403, -1);
    api.dispatcher.fail("POST", "/leases", 403, -1);
    api.dispatcher.fail("PATCH", "/leases/caldera-scheduler", 403, -1);
    try (Replica a = new Replica("replica-a")) {
      await("a lease error counted", () -> a.election.errors() > 0);
      SourceStatus status = a.cluster.status();
      assertThat(status.state()).isEqualTo(SourceStatus.State.NOT_READY);
      assertThat(status.reason())
          .contains("lease kube-system/caldera-scheduler")
          .contains("HTTP 403");
      assertThat(a.election.isLeader()).isFalse();

      api.dispatcher.clearFaults();
      await("leading once the lease is allowed", Duration.ofSeconds(5), a.election::isLeader);
      assertThat(a.cluster.status().isReady()).isTrue();
    }
  }

  @Test
  void options_needRetryBelowDeadlineBelowLease() {
    assertThatThrownBy(
            () ->
                new LeaderElection.Options(
                    "ns",
                    "l",
                    Duration.ofSeconds(10),
                    Duration.ofSeconds(10),
                    Duration.ofSeconds(2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("renewDeadline < leaseDuration");
    assertThat(LeaderElection.Options.defaults("ns").leaseDuration())
        .isEqualTo(Duration.ofSeconds(15));
  }
}
