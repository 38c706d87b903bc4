package dev.caldera.load;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fabric8 mock API server in CRUD mode, standing in for a real one: it binds a pod when a
 * scheduler posts its {@code binding} subresource (the CRUD mode reads that path as the creation of
 * a second object and answers 409), serves Volcano's CRDs once {@link #installVolcanoCrds} has
 * created them, and writes a kubeconfig for the tool.
 */
final class MockCluster implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern BINDING =
      Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/]+)/binding");
  private static final Pattern NAMESPACED_COLLECTION =
      Pattern.compile(
          "/api/v1/namespaces/[^/]+/pods|/apis/scheduling.volcano.sh/v1beta1/namespaces/[^/]+/podgroups");

  private final KubernetesMockServer server;
  private final AtomicInteger binds = new AtomicInteger();

  /**
   * When not 0, a delete of a namespace's pods, pod groups or events as a collection deletes
   * nothing and answers this code: 200 as a real API server's delete that ended (at its request
   * timeout) before it reached every object, 403 as one whose RBAC grants {@code delete} but not
   * {@code deletecollection}.
   */
  volatile int collectionDeleteAnswer;

  final KubernetesClient kubectl;

  MockCluster() {
    Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
    server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            responses,
            new BindingDispatcher(new KubernetesMixedDispatcher(responses)),
            false);
    server.init();
    kubectl = client();
  }

  /** A client of the server, as a test's {@code kubectl}. */
  KubernetesClient client() {
    Config config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl(server.url("/"))
            .withNamespace("default")
            .withHttp2Disable(true)
            .withRequestTimeout(10_000)
            .build();
    return new KubernetesClientBuilder()
        .withConfig(config)
        .withHttpClientFactory(new JdkHttpClientFactory())
        .build();
  }

  /** Writes a kubeconfig for the server into {@code dir}. */
  Path kubeconfig(Path dir) throws IOException {
    Path file = dir.resolve("mock.kubeconfig");
    Files.writeString(
        file,
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: mock
          cluster: {server: '%s'}
        users:
        - name: anonymous
          user: {}
        contexts:
        - name: mock
          context: {cluster: mock, user: anonymous}
        current-context: mock
        """
            .formatted(server.url("/")));
    return file;
  }

  /** Creates Volcano's Queue and PodGroup CRDs as shipped in {@code runtime/deploy/crds}. */
  void installVolcanoCrds() throws IOException {
    Path crds = Path.of(System.getProperty("caldera.deploy.dir", "../../runtime/deploy"), "crds");
    for (String file : List.of("queues.yaml", "podgroups.yaml")) {
      try (InputStream in = Files.newInputStream(crds.resolve(file))) {
        CustomResourceDefinition crd =
            kubectl.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
        kubectl.apiextensions().v1().customResourceDefinitions().resource(crd).create();
      }
    }
  }

  /** How many binding requests the server answered. */
  int binds() {
    return binds.get();
  }

  @Override
  public void close() {
    kubectl.close();
    server.destroy();
  }

  /**
   * The CRUD dispatcher plus the binding subresource: answers 201 and then, off the server's event
   * loop (a call into the server from a reply deadlocks it), sets the pod's node and its
   * PodScheduled condition as the API server does.
   */
  private final class BindingDispatcher extends Dispatcher {
    private final KubernetesMixedDispatcher delegate;

    BindingDispatcher(KubernetesMixedDispatcher delegate) {
      this.delegate = delegate;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
      String path = request.getPath();
      int q = path.indexOf('?');
      Matcher m = BINDING.matcher(q < 0 ? path : path.substring(0, q));
      if (request.getMethod().equals("POST") && m.matches()) {
        return bind(m.group(1), m.group(2), request.getBody().readUtf8());
      }
      int answer = collectionDeleteAnswer;
      if (answer != 0
          && request.getMethod().equals("DELETE")
          && NAMESPACED_COLLECTION.matcher(q < 0 ? path : path.substring(0, q)).matches()) {
        return new MockResponse()
            .setResponseCode(answer)
            .setBody(
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"code\":"
                    + answer
                    + ",\"status\":\""
                    + (answer < 300 ? "Success" : "Failure")
                    + "\"}");
      }
      MockResponse response = delegate.dispatch(request);
      WebSocketListener listener = response.getWebSocketListener();
      return listener == null
          ? response
          : new MockResponse().withWebSocketUpgrade(new WatchEndsOffTheLoop(listener));
    }

    private MockResponse bind(String namespace, String name, String body) {
      String node;
      try {
        node = JSON.readTree(body).path("target").path("name").asText();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      binds.incrementAndGet();
      CompletableFuture.runAsync(
          () ->
              kubectl
                  .pods()
                  .inNamespace(namespace)
                  .withName(name)
                  .edit(
                      p -> {
                        p.getSpec().setNodeName(node);
                        if (p.getStatus() == null) {
                          p.setStatus(new PodStatus());
                        }
                        p.getStatus()
                            .getConditions()
                            .removeIf(c -> "PodScheduled".equals(c.getType()));
                        p.getStatus()
                            .getConditions()
                            .add(
                                new PodConditionBuilder()
                                    .withType("PodScheduled")
                                    .withStatus("True")
                                    .build());
                        return p;
                      }));
      return new MockResponse()
          .setResponseCode(201)
          .setBody(
              "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Success\",\"code\":201}");
    }

    @Override
    public void shutdown() {
      delegate.shutdown();
    }
  }

  private static final String FABRIC8_WATCH_LISTENER =
      "io.fabric8.kubernetes.client.server.mock.WatchEventsListener";

  /**
   * Ends a closed watch off the server's event loop, and takes it off the CRUD server's list of
   * watches at once: fabric8's listener waits for its sending thread on the event loop that thread
   * needs (the server then cannot close in time), and an object created meanwhile is handed to a
   * stopped thread and never answered. The kube module's {@code FaultyDispatcher} found and fixed
   * both; this is the same fix.
   */
  private static final class WatchEndsOffTheLoop extends WebSocketListener {
    private final WebSocketListener inner;

    WatchEndsOffTheLoop(WebSocketListener inner) {
      this.inner = inner;
    }

    @Override
    public void onBeforeAccept(WebSocket webSocket, Response response) {
      inner.onBeforeAccept(webSocket, response);
    }

    @Override
    public void onOpen(WebSocket webSocket, Response response) {
      inner.onOpen(webSocket, response);
    }

    @Override
    public void onMessage(WebSocket webSocket, String text) {
      inner.onMessage(webSocket, text);
    }

    @Override
    public void onClosing(WebSocket webSocket, int code, String reason) {
      leaveTheServersWatches();
      inner.onClosing(webSocket, code, reason);
    }

    @Override
    public void onClosed(WebSocket webSocket, int code, String reason) {
      leaveTheServersWatches();
      offTheEventLoop(() -> inner.onClosed(webSocket, code, reason));
    }

    @Override
    public void onFailure(WebSocket webSocket, Throwable error, Response response) {
      leaveTheServersWatches();
      offTheEventLoop(() -> inner.onFailure(webSocket, error, response));
    }

    private void leaveTheServersWatches() {
      if (!inner.getClass().getName().equals(FABRIC8_WATCH_LISTENER)) {
        return;
      }
      try {
        java.lang.reflect.Field list = inner.getClass().getDeclaredField("watchEventListenerList");
        list.setAccessible(true);
        ((Set<?>) list.get(inner)).remove(inner);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(
            "fabric8's mock server changed: cannot take a closed watch off its list", e);
      }
    }

    private static void offTheEventLoop(Runnable end) {
      Thread t = new Thread(end, "mock-watch-end");
      t.setDaemon(true);
      t.start();
    }
  }
}
