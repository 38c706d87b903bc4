package dev.caldera.kube.internal;

import static dev.caldera.kube.MockApi.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.kube.MockApi;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The leader check's deadline, on a fake clock (the lease itself on the mock API server). */
class LeaseElectorTest {

  private static final LeaseElector.Callbacks QUIET =
      new LeaseElector.Callbacks() {
        @Override
        public void startedLeading() {}

        @Override
        public void stoppedLeading() {}

        @Override
        public void newLeader(String identity) {}
      };

  private final MockApi api = new MockApi();

  @AfterEach
  void stop() {
    api.close();
  }

  @Test
  void isLeader_turnsFalseExactlyAtTheRenewDeadlineAfterTheLastRenewal() {
    AtomicLong now = new AtomicLong();
    Duration deadline = Duration.ofSeconds(10);
    try (LeaseElector e =
        new LeaseElector(
            api.client(),
            "ns",
            "lease",
            "me",
            Duration.ofSeconds(15),
            deadline,
            Duration.ofMillis(50),
            QUIET,
            now::get)) {
      e.start();
      await("leading", e::isLeader);
      // Renewals fail from now on; wait until one has failed, so none is in flight.
      api.failAll("/leases/lease");
      int before = api.requests("GET", "/leases/lease");
      await("a failed renewal", () -> api.requests("GET", "/leases/lease") > before + 1);
      // The last renewal read the lease at fake time 0.
      now.set(deadline.toNanos() - 1);
      assertThat(e.isLeader()).isTrue();
      now.set(deadline.toNanos());
      assertThat(e.isLeader()).isFalse();
      api.clearFaults();
    }
  }

  private LeaseElector elector(AtomicLong now) {
    return new LeaseElector(
        api.client(),
        "ns",
        "lease",
        "me",
        Duration.ofSeconds(15),
        Duration.ofSeconds(10),
        Duration.ofMillis(50),
        QUIET,
        now::get);
  }

  @Test
  void a403RightAfterTheServerWasUnreachable_readsAsTheServerStarting_andLaterAsRbac() {
    AtomicLong now = new AtomicLong();
    try (LeaseElector e = elector(now)) {
      api.failAll("/leases/lease");
      e.start();
      await("an unanswered read", () -> e.failure() != null);
      api.clearFaults();
      api.failRequests("GET", "/leases/lease", 403, -1);
      await(
          "the 403 read as the server starting",
          () -> e.failure() != null && e.failure().startsWith("the API server is starting"));
      assertThat(e.failure()).contains("ns/lease");

      now.set(LeaseElector.STARTING.toNanos());
      await(
          "the lasting 403 read as RBAC",
          () -> e.failure() != null && e.failure().startsWith("cannot read the lease ns/lease"));
      assertThat(e.failure()).contains("HTTP 403");
      api.clearFaults();
    }
  }

  @Test
  void aLeaseRequestAnswered5xx_saysTheServerWasOutOfReach_butA403WithoutAnOutageDoesNot() {
    AtomicLong unreachable = new AtomicLong();
    LeaseElector.Callbacks counting =
        new LeaseElector.Callbacks() {
          @Override
          public void startedLeading() {}

          @Override
          public void stoppedLeading() {}

          @Override
          public void newLeader(String identity) {}

          @Override
          public void serverUnreachable() {
            unreachable.incrementAndGet();
          }
        };
    api.failRequests("GET", "/leases/lease", 403, -1);
    try (LeaseElector e =
        new LeaseElector(
            api.client(),
            "ns",
            "lease",
            "me",
            Duration.ofSeconds(15),
            Duration.ofSeconds(10),
            Duration.ofMillis(50),
            counting,
            new AtomicLong()::get)) {
      e.start();
      int before = api.requests("GET", "/leases/lease");
      await("two refused reads", () -> api.requests("GET", "/leases/lease") > before + 1);
      assertThat(unreachable.get()).as("403 without an outage: RBAC, not an outage").isZero();
      api.clearFaults();
      api.failAll("/leases/lease");
      await("the 5xx heard as the server out of reach", () -> unreachable.get() > 0);
      api.clearFaults();
    }
  }

  @Test
  void a403WithoutAnOutage_readsAsRbac() {
    AtomicLong now = new AtomicLong();
    api.failRequests("GET", "/leases/lease", 403, -1);
    try (LeaseElector e = elector(now)) {
      e.start();
      await("a failed read", () -> e.failure() != null);
      assertThat(e.failure()).startsWith("cannot read the lease ns/lease: HTTP 403");
      api.clearFaults();
    }
  }

  @Test
  void aLeaseNobodyRenews_isExpiredAfterTheLeaseDuration_seenFromThisReplica() {
    AtomicLong now = new AtomicLong();
    api.client()
        .leases()
        .inNamespace("ns")
        .resource(
            new io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder()
                .withNewMetadata()
                .withName("lease")
                .endMetadata()
                .withNewSpec()
                .withHolderIdentity("dead")
                .withLeaseDurationSeconds(15)
                .withAcquireTime(java.time.ZonedDateTime.now())
                .withRenewTime(java.time.ZonedDateTime.now())
                .withLeaseTransitions(0)
                .endSpec()
                .build())
        .create();
    try (LeaseElector e = elector(now)) {
      e.start();
      await("the holder seen", () -> "dead".equals(e.leader()));
      assertThat(e.expiredHolder()).isNull();
      now.set(Duration.ofSeconds(15).toNanos() - 1);
      assertThat(e.expiredHolder()).isNull();
      now.set(Duration.ofSeconds(15).toNanos());
      assertThat(e.expiredHolder()).isEqualTo("dead");
    }
  }

  @Test
  void timings_mustLeaveTheDeadlineInsideTheLease() {
    assertThatThrownBy(
            () ->
                new LeaseElector(
                    api.client(),
                    "ns",
                    "l",
                    "me",
                    Duration.ofSeconds(5),
                    Duration.ofSeconds(5),
                    Duration.ofSeconds(1),
                    QUIET))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shorter than the lease duration");
    assertThatThrownBy(
            () ->
                new LeaseElector(
                    api.client(),
                    "ns",
                    "l",
                    "me",
                    Duration.ofSeconds(15),
                    Duration.ofSeconds(2),
                    Duration.ofSeconds(2),
                    QUIET))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shorter than the renew deadline");
  }
}
