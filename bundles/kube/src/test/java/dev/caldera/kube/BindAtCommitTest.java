package dev.caldera.kube;

import static dev.caldera.kube.MockApi.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.framework.SessionResult;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A bind handed over while its session runs is sent at once, once, and only through the gate. */
class BindAtCommitTest {

  private final MockApi api = new MockApi();

  @AfterEach
  void stop() {
    api.close();
  }

  private static final SessionResult.Bind P_ON_N1 =
      new SessionResult.Bind("ns1/p", "n1", List.of());

  private void onePendingPod() {
    api.node("n1", "4", "8Gi");
    api.queue("default", 1);
    api.pod("ns1", "p").requests("1", "1Gi").create();
  }

  @Test
  void aBindAtCommit_isSentWithoutWaitingForTheSessionsResult_andNotAgainWithIt() throws Exception {
    onePendingPod();
    try (KubeCluster cluster = api.cluster("a")) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();

      assertThat(cluster.bindAtCommit(P_ON_N1)).isTrue();
      await("bound", () -> "n1".equals(api.nodeOf("ns1", "p")));
      // A result that still carries it (a writer must not bind twice either way).
      cluster.apply(
          new SessionResult(
              "s1", List.of(P_ON_N1), List.of(), List.of(), null, null, null, List.of(), null));
      await("writes done", () -> cluster.counters().writesInFlight() == 0);

      assertThat(api.bindings("ns1", "p")).isEqualTo(1);
      assertThat(cluster.counters().bindsSucceeded()).isEqualTo(1);
    }
  }

  @Test
  void withTheWriteGateShut_aBindAtCommit_isLeftToTheSessionsResult() throws Exception {
    onePendingPod();
    try (KubeCluster cluster = api.cluster("a")) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      cluster.setWriteGate(() -> false);

      assertThat(cluster.bindAtCommit(P_ON_N1)).isFalse();
      await("writes done", () -> cluster.counters().writesInFlight() == 0);

      assertThat(api.bindings("ns1", "p")).isZero();
    }
  }
}
