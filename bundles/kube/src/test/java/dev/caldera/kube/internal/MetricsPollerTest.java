package dev.caldera.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.kube.MockApi;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A failed read of the metrics API is reported in one line that says what the server did. */
class MetricsPollerTest {

  private final Logger log = Logger.getLogger(MetricsPoller.class.getName());
  private final List<String> warnings = new CopyOnWriteArrayList<>();
  private final Handler capture =
      new Handler() {
        @Override
        public void publish(LogRecord record) {
          warnings.add(record.getMessage());
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  private Level configured;

  @BeforeEach
  void listen() {
    // The tests' logging.properties keeps dev.caldera.kube at SEVERE.
    configured = log.getLevel();
    log.setLevel(Level.WARNING);
    log.addHandler(capture);
  }

  @AfterEach
  void stopListening() {
    log.removeHandler(capture);
    log.setLevel(configured);
  }

  @Test
  void aServerError_isReportedWithItsStatusAndMessage_inOneLine() {
    try (MockApi api = new MockApi()) {
      api.failAll("/apis/metrics.k8s.io/");
      MetricsPoller poller = new MetricsPoller(api.client(), new ClusterCache());

      poller.poll();

      assertThat(warnings)
          .containsExactly("reading node metrics failed: HTTP 500: injected by the test");
      assertThat(poller.served()).isTrue();
    }
  }

  @Test
  void noAnswer_namesWhatTheConnectionDid_notFabric8sGenericText() throws IOException {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    Config config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl("http://127.0.0.1:" + closedPort)
            .withRequestRetryBackoffLimit(0)
            .withConnectionTimeout(2_000)
            .build();
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
      new MetricsPoller(client, new ClusterCache()).poll();
    }

    assertThat(warnings).hasSize(1);
    assertThat(warnings.get(0))
        .startsWith("reading node metrics failed: no answer from the API server: ")
        .contains("ConnectException")
        .doesNotContain("An error has occurred");
  }
}
