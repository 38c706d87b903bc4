package dev.caldera.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.kube.internal.Clients;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a cluster starts (issue 12, start-up): on a connection of its own, one small request opens it
 * before the informers start, so that the JDK client multiplexes them on it; and the loop's first
 * question is answered when the first lists are in, not a period later.
 */
class KubeClusterConnectTest {

  @TempDir Path dir;

  @Test
  void theFirstRequestIsOneSmallList_andTheInformersListOnlyAfterItAnswered() throws Exception {
    try (MockApi api = new MockApi()) {
      api.node("n1", "4", "8Gi");
      api.node("n2", "4", "8Gi");
      Path kubeconfig = dir.resolve("kubeconfig");
      Files.writeString(kubeconfig, TestKubeconfig.yaml(URI.create(api.url())));
      KubeOptions options =
          KubeOptions.builder()
              .kubeconfig(kubeconfig)
              .identity("connect-test")
              .metricsInterval(Duration.ZERO)
              .httpWatches(false) // the mock server streams watches over WebSockets only
              .build();
      try (KubeCluster cluster = KubeCluster.connect(options)) {
        assertThat(cluster.awaitSync(Duration.ofSeconds(30))).isTrue();
        assertThat(cluster.snapshot().nodes()).hasSize(2);
      }
      List<ApiRequest> sent = api.dispatcher.requestsFrom(Clients.USER_AGENT);
      assertThat(sent).isNotEmpty();
      assertThat(sent.get(0).method()).isEqualTo("GET");
      assertThat(sent.get(0).path()).isEqualTo("/api/v1/nodes?limit=1");
      assertThat(sent.stream().filter(r -> r.path().equals("/api/v1/nodes?limit=1"))).hasSize(1);
    }
  }

  @Test
  void aStatusAskedWhileTheFirstListsAreInFlight_waitsForThemInsteadOfAPeriod() throws Exception {
    try (MockApi api = new MockApi()) {
      api.node("n1", "4", "8Gi");
      // The list of pods takes half a second, as a large one does on a real server.
      api.dispatcher.intercept(
          r -> {
            if (r.getMethod().equals("GET")
                && r.getPath().startsWith("/api/v1/pods")
                && !r.getPath().contains("watch=true")) {
              try {
                Thread.sleep(500);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
            return null;
          });
      // The informers are listing when connect returns; the loop's first question comes at once.
      try (KubeCluster cluster = api.cluster("status-test")) {
        long asked = System.nanoTime();
        assertThat(cluster.status().isReady()).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - asked)).isLessThan(Duration.ofSeconds(3));
        assertThat(cluster.snapshot().nodes()).hasSize(1);
      }
    }
  }

  @Test
  void watchesAreHttpRequestsOnTheSharedConnection_unlessWebSocketsAreAskedFor() throws Exception {
    assertThat(KubeOptions.builder().identity("x").build().httpWatches()).isTrue();
    Path kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(kubeconfig, TestKubeconfig.yaml(URI.create("https://127.0.0.1:1")));
    try (var http = Clients.create(kubeconfig, null, 10, 10, true);
        var websocket = Clients.create(kubeconfig, null, 10, 10, false)) {
      assertThat(http.getConfiguration().isOnlyHttpWatches()).isTrue();
      assertThat(websocket.getConfiguration().isOnlyHttpWatches()).isFalse();
    }
  }
}
