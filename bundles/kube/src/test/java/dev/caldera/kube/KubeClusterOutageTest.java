package dev.caldera.kube;

import static dev.caldera.kube.MockApi.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.model.Pod;
import dev.caldera.framework.SessionResult;
import dev.caldera.kube.internal.Clients;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The API server unreachable for the scheduler while it commits a bind whose answer the scheduler
 * never gets: after the outage no session decides on the view from before it, so no bind is sent
 * for the pod the server bound meanwhile.
 */
class KubeClusterOutageTest {

  private final MockApi api = new MockApi();
  private final AtomicBoolean down = new AtomicBoolean();
  private final AtomicBoolean silentWatches = new AtomicBoolean();
  private final AtomicBoolean gone = new AtomicBoolean();
  private final Set<WebSocket> silent = ConcurrentHashMap.newKeySet();

  @AfterEach
  void stop() {
    api.close();
  }

  @Test
  void afterAnOutage_noSessionRunsOnTheOldView_andNoBindIsSentForAPodBoundMeanwhile()
      throws Exception {
    api.node("n1", "4", "8Gi");
    api.pod("ns1", "a").requests("1", "1Gi").create();
    api.pod("ns1", "b").requests("1", "1Gi").create();
    api.dispatcher.intercept(
        r -> {
          String agent = r.getHeader("User-Agent");
          if (agent == null || !agent.startsWith(Clients.USER_AGENT)) {
            return null; // the test's own client: what the server did meanwhile
          }
          boolean watch = r.getPath().contains("watch=true");
          if (watch && silentWatches.get()) {
            // Reconnected, but the server has not replayed what happened meanwhile yet.
            return new MockResponse()
                .withWebSocketUpgrade(
                    new WebSocketListener() {
                      @Override
                      public void onOpen(WebSocket socket, Response response) {
                        silent.add(socket);
                      }
                    });
          }
          if (watch && gone.getAndSet(false)) {
            return status(410, "too old resource version"); // the informer lists again
          }
          if (r.getPath().endsWith("/pods/a/binding") && down.compareAndSet(false, true)) {
            // The bind of a reaches the server and is committed (below); the connection dies
            // before the answer, and every request fails for a while.
            silentWatches.set(true);
          }
          return down.get() && !watch ? status(503, "the API server is down") : null;
        });
    try (KubeCluster cluster = api.cluster("s")) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      await("both pods", () -> pending(cluster).size() == 2);
      assertThat(cluster.status().isReady()).isTrue();

      cluster.apply(binds(List.of("ns1/a")));
      await("the bind of a sent", down::get);
      // The connections drop; the watches reconnect but hear nothing of what the server does.
      api.dispatcher.dropWatches();
      bindA();
      assertThat(cluster.awaitWritesIdle(Duration.ofSeconds(10))).isTrue();
      int sentForA = api.dispatcher.count("POST", "/namespaces/ns1/pods/a/binding");

      // The server is back; the watches are connected but behind it.
      down.set(false);
      System.err.println(
          "DEBUG status "
              + cluster.status()
              + " pending "
              + pending(cluster)
              + " failed "
              + cluster.counters());
      for (int i = 0; i < 5; i++) {
        assertThat(cluster.status().isReady()).isFalse();
        session(cluster);
      }
      assertThat(cluster.awaitWritesIdle(Duration.ofSeconds(10))).isTrue();
      assertThat(api.dispatcher.count("POST", "/namespaces/ns1/pods/a/binding"))
          .as("bind requests for a after the server bound it")
          .isEqualTo(sentForA);

      // The watches catch up (here by listing again: the mock server does not replay).
      silentWatches.set(false);
      gone.set(true);
      silent.forEach(s -> s.close(1011, "the test"));
      await(
          "a shown bound and b bound",
          Duration.ofSeconds(20),
          () -> {
            session(cluster);
            return "n1".equals(api.nodeOf("ns1", "b")) && !pending(cluster).contains("ns1/a");
          });
      assertThat(cluster.awaitWritesIdle(Duration.ofSeconds(10))).isTrue();
      assertThat(api.dispatcher.count("POST", "/namespaces/ns1/pods/a/binding"))
          .isEqualTo(sentForA);
      assertThat(api.bindings("ns1", "b")).isEqualTo(1);
    }
  }

  private void bindA() {
    api.client()
        .pods()
        .inNamespace("ns1")
        .withName("a")
        .edit(
            p -> {
              p.getSpec().setNodeName("n1");
              return p;
            });
  }

  private static MockResponse status(int code, String message) {
    return new MockResponse()
        .setResponseCode(code)
        .setBody(
            "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":"
                + code
                + ",\"message\":\""
                + message
                + "\"}");
  }

  private static SessionResult binds(List<String> pods) {
    return new SessionResult(
        "s",
        pods.stream().map(key -> new SessionResult.Bind(key, "n1")).toList(),
        List.of(),
        List.of(),
        Map.of(),
        Map.of(),
        Map.of(),
        List.of(),
        null);
  }

  /** What the scheduling loop does each period: a session only while the source says ready. */
  private static void session(KubeCluster cluster) {
    if (!cluster.status().isReady()) {
      return;
    }
    cluster.apply(binds(pending(cluster)));
  }

  private static List<String> pending(KubeCluster cluster) {
    return cluster.snapshot().pods().stream()
        .filter(p -> p.nodeName().isEmpty())
        .map(Pod::key)
        .toList();
  }
}
