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
