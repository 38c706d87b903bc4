package io.fabric8.kubernetes.client.dsl.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.caldera.kube.internal.Informers;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodListBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class ByteLineWatchManagerTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void linesAreCutAtNewlinesWhereverTheChunksEnd() {
    // "ü" and "→" are two and three bytes: every chunk size from 1 to 9 cuts one of them somewhere.
    String stream = "{\"a\":\"grün\"}\n\n{\"b\":\"x→y\"}\n{\"c\":1}\n{\"d\"";
    byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
    for (int size = 1; size <= 9; size++) {
      ByteLineWatchManager.Lines lines = new ByteLineWatchManager.Lines();
      List<String> got = new ArrayList<>();
      for (int at = 0; at < bytes.length; at += size) {
        lines.append(ByteBuffer.wrap(bytes, at, Math.min(size, bytes.length - at)));
        String line;
        while ((line = lines.next()) != null) {
          got.add(line);
        }
      }
      assertThat(got)
          .as("chunks of %d bytes", size)
          .containsExactly("{\"a\":\"grün\"}", "{\"b\":\"x→y\"}", "{\"c\":1}");
      lines.append(ByteBuffer.wrap(":2}\n".getBytes(StandardCharsets.UTF_8)));
      assertThat(lines.next()).isEqualTo("{\"d\":2}");
      assertThat(lines.next()).isNull();
    }
  }

  @Test
  void aLineLongerThanTheBufferIsKeptWhole() {
    String longLine = "{\"x\":\"" + "é".repeat(20_000) + "\"}";
    byte[] bytes = (longLine + "\n").getBytes(StandardCharsets.UTF_8);
    ByteLineWatchManager.Lines lines = new ByteLineWatchManager.Lines();
    for (int at = 0; at < bytes.length; at += 1000) {
      lines.append(ByteBuffer.wrap(bytes, at, Math.min(1000, bytes.length - at)));
    }
    assertThat(lines.next()).isEqualTo(longLine);
    assertThat(lines.next()).isNull();
  }

  /** How a test's informer is made: as the cluster's kinds get theirs, or as PluginBundles does. */
  enum Source {
    POD_OPERATION {
      @Override
      SharedIndexInformer<? extends HasMetadata> informer(KubernetesClient client) {
        return ByteLineWatchManager.informer(
            (BaseOperation<Pod, io.fabric8.kubernetes.api.model.PodList, ?>)
                client.pods().inAnyNamespace());
      }
    },
    GENERIC_THROUGH_INFORMERS {
      @Override
      SharedIndexInformer<? extends HasMetadata> informer(KubernetesClient client) {
        return Informers.runnableInformer(
            client
                .genericKubernetesResources(
                    new ResourceDefinitionContext.Builder()
                        .withVersion("v1")
                        .withKind("Pod")
                        .withPlural("pods")
                        .withNamespaced(true)
                        .build())
                .inAnyNamespace());
      }
    };

    abstract SharedIndexInformer<? extends HasMetadata> informer(KubernetesClient client);
  }

  /**
   * The informer lists, then watches over HTTP: the events arrive in chunks of 7 bytes (lines and
   * characters cut anywhere) and the store ends as the events say; the watch is this class's, for a
   * typed kind and for a generic one alike.
   */
  @ParameterizedTest
  @EnumSource(Source.class)
  void anInformerOverHttpWatchesReadsEveryEventOfAChunkedStream(Source source) throws Exception {
    AtomicInteger watches = new AtomicInteger();
    HttpServer server =
        serve(
            exchange -> {
              try (exchange) {
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                if (!isWatch(exchange.getRequestURI().getQuery())) {
                  byte[] list =
                      JSON.writeValueAsBytes(
                          new PodListBuilder()
                              .withNewMetadata()
                              .withResourceVersion("5")
                              .endMetadata()
                              .withItems(pod("a", "5", "eins"))
                              .build());
                  exchange.sendResponseHeaders(200, list.length);
                  exchange.getResponseBody().write(list);
                  return;
                }
                exchange.sendResponseHeaders(200, 0); // chunked: each flush below is one chunk
                if (watches.incrementAndGet() > 1) {
                  sleep(5_000); // later watches: nothing new, held open as the API server does
                  return;
                }
                byte[] events =
                    (event("ADDED", pod("b", "6", "zwei → drei"))
                            + event("MODIFIED", pod("a", "7", "grün"))
                            + event("ADDED", pod("c", "8", "vier"))
                            + event("DELETED", pod("c", "9", "vier")))
                        .getBytes(StandardCharsets.UTF_8);
                OutputStream out = exchange.getResponseBody();
                for (int at = 0; at < events.length; at += 7) {
                  out.write(events, at, Math.min(7, events.length - at));
                  out.flush();
                }
                sleep(5_000);
              }
            });
    withInformer(
        server,
        source,
        informer -> {
          eventually(
              () -> {
                assertThat(informer.getStore().list())
                    .extracting(p -> p.getMetadata().getName())
                    .containsExactlyInAnyOrder("a", "b");
                assertThat(label(informer, "ns/a")).isEqualTo("grün");
                assertThat(label(informer, "ns/b")).isEqualTo("zwei → drei");
                // The store holds a and b from the second event on: wait for the last one.
                assertThat(informer.lastSyncResourceVersion()).isEqualTo("9");
              });
          assertThat(informer.isWatching()).isTrue();
        });
  }

  /**
   * A watch the API server ends with 410 Gone (its resource version was compacted away), as a
   * status event in the stream or as the answer's own status: the informer lists again and watches
   * from the new list's version, as client-go's reflector does.
   */
  @ParameterizedTest(name = "gone as HTTP status: {0}")
  @ValueSource(booleans = {false, true})
  void aWatchEndedGoneListsAgainAndWatchesFromTheNewList(boolean goneAsHttpStatus)
      throws Exception {
    AtomicInteger lists = new AtomicInteger();
    List<String> watchQueries = new java.util.concurrent.CopyOnWriteArrayList<>();
    HttpServer server =
        serve(
            exchange -> {
              try (exchange) {
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                String query = exchange.getRequestURI().getQuery();
                if (!isWatch(query)) {
                  boolean first = lists.incrementAndGet() == 1;
                  byte[] list =
                      JSON.writeValueAsBytes(
                          first
                              ? new PodListBuilder()
                                  .withNewMetadata()
                                  .withResourceVersion("5")
                                  .endMetadata()
                                  .withItems(pod("a", "5", "eins"), pod("b", "5", "zwei"))
                                  .build()
                              : new PodListBuilder()
                                  .withNewMetadata()
                                  .withResourceVersion("20")
                                  .endMetadata()
                                  .withItems(pod("a", "20", "neu"), pod("d", "19", "vier"))
                                  .build());
                  exchange.sendResponseHeaders(200, list.length);
                  exchange.getResponseBody().write(list);
                  return;
                }
                watchQueries.add(query);
                if (goneAsHttpStatus && watchQueries.size() == 1) {
                  exchange.sendResponseHeaders(410, -1);
                  return;
                }
                exchange.sendResponseHeaders(200, 0);
                if (watchQueries.size() == 1) {
                  String gone =
                      JSON.writeValueAsString(
                              Map.of(
                                  "type",
                                  "ERROR",
                                  "object",
                                  Map.of(
                                      "kind", "Status",
                                      "apiVersion", "v1",
                                      "status", "Failure",
                                      "reason", "Expired",
                                      "message", "too old resource version: 5 (15)",
                                      "code", 410)))
                          + "\n";
                  exchange.getResponseBody().write(gone.getBytes(StandardCharsets.UTF_8));
                  exchange.getResponseBody().flush();
                }
                sleep(5_000);
              }
            });
    withInformer(
        server,
        Source.POD_OPERATION,
        informer -> {
          eventually(
              () -> {
                assertThat(informer.getStore().list())
                    .extracting(p -> p.getMetadata().getName())
                    .containsExactlyInAnyOrder("a", "d");
                assertThat(label(informer, "ns/a")).isEqualTo("neu");
                assertThat(watchQueries).hasSize(2);
              });
          assertThat(lists).hasValue(2);
          assertThat(watchQueries.get(0)).contains("resourceVersion=5");
          assertThat(watchQueries.get(1)).contains("resourceVersion=20");
          assertThat(informer.lastSyncResourceVersion()).isEqualTo("20");
        });
  }

  /** What a test checks on a started informer. */
  @FunctionalInterface
  private interface InformerCheck {
    void check(SharedIndexInformer<? extends HasMetadata> informer) throws Exception;
  }

  /**
   * Starts {@code source}'s informer on a client of {@code server}, runs {@code check} on it, then
   * stops the informer, the client and the server.
   */
  private static void withInformer(HttpServer server, Source source, InformerCheck check)
      throws Exception {
    try (KubernetesClient client = httpWatchClient(server)) {
      SharedIndexInformer<? extends HasMetadata> informer = source.informer(client);
      try {
        informer.start();
        check.check(informer);
      } finally {
        informer.stop();
      }
    } finally {
      server.stop(0);
    }
  }

  /** Waits until {@code assertions} hold, for 20 s at most; then their last failure is thrown. */
  private static void eventually(Runnable assertions) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (true) {
      try {
        assertions.run();
        return;
      } catch (AssertionError notYet) {
        if (System.nanoTime() > deadline) {
          throw notYet;
        }
        Thread.sleep(20);
      }
    }
  }

  /** A loopback server, started, that answers every request with {@code handler}. */
  private static HttpServer serve(HttpHandler handler) throws java.io.IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext("/", handler);
    server.start();
    return server;
  }

  private static KubernetesClient httpWatchClient(HttpServer server) {
    Config config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl("http://127.0.0.1:" + server.getAddress().getPort() + "/")
            .withOnlyHttpWatches(true)
            .withRequestRetryBackoffLimit(0)
            .build();
    return new KubernetesClientBuilder()
        .withConfig(config)
        .withHttpClientFactory(new JdkHttpClientFactory())
        .build();
  }

  /** A relist after 410 Gone asks for a consistent read: no query at all. */
  private static boolean isWatch(String query) {
    return query != null && query.contains("watch=true");
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static String label(SharedIndexInformer<? extends HasMetadata> informer, String key) {
    return informer.getStore().getByKey(key).getMetadata().getAnnotations().get("note");
  }

  private static Pod pod(String name, String resourceVersion, String note) {
    return new PodBuilder()
        .withNewMetadata()
        .withNamespace("ns")
        .withName(name)
        .withResourceVersion(resourceVersion)
        .withAnnotations(Map.of("note", note))
        .endMetadata()
        .build();
  }

  private static String event(String type, Pod pod) throws java.io.IOException {
    return JSON.writeValueAsString(Map.of("type", type, "object", pod)) + "\n";
  }
}
