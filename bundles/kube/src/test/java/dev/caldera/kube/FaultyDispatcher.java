package dev.caldera.kube;

import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The mock server's CRUD-plus-expectations dispatcher with faults on top: answer chosen requests
 * with an error status, and drop the open watches (closing their web sockets from the server side),
 * as an API server behind a flaky load balancer does.
 */
final class FaultyDispatcher extends Dispatcher {

  private record Fault(Predicate<RecordedRequest> matches, int code, AtomicInteger left) {}

  private final KubernetesMixedDispatcher delegate;
  private final List<Fault> faults = new CopyOnWriteArrayList<>();
  private final Set<WebSocket> sockets = ConcurrentHashMap.newKeySet();
  private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
  private final List<ApiRequest> requests = new CopyOnWriteArrayList<>();
  private volatile Function<RecordedRequest, MockResponse> interceptor = r -> null;

  FaultyDispatcher(Map<ServerRequest, Queue<ServerResponse>> responses) {
    this.delegate = new KubernetesMixedDispatcher(responses);
  }

  /**
   * Answers the next {@code times} requests with {@code method} whose path (without the query) ends
   * with {@code pathSuffix} with {@code code}; {@code times < 0} means until {@link
   * #clearFaults()}.
   */
  void fail(String method, String pathSuffix, int code, int times) {
    faults.add(
        new Fault(
            r -> r.getMethod().equals(method) && path(r).endsWith(pathSuffix),
            code,
            new AtomicInteger(times)));
  }

  /** Answers every request whose path (without the query) contains {@code part} with 500. */
  void failAll(String part) {
    faults.add(new Fault(r -> path(r).contains(part), 500, new AtomicInteger(-1)));
  }

  void clearFaults() {
    faults.clear();
  }

  /**
   * Lets {@code interceptor} answer requests before the CRUD server and the expectations do; it
   * returns null for a request it leaves alone.
   */
  void intercept(Function<RecordedRequest, MockResponse> interceptor) {
    this.interceptor = interceptor;
  }

  /** Closes every watch the server holds open. */
  int dropWatches() {
    int n = 0;
    for (WebSocket s : sockets) {
      s.close(1011, "dropped by the test");
      n++;
    }
    sockets.clear();
    return n;
  }

  /** How many requests with {@code method} had a path (without the query) ending so. */
  int count(String method, String pathSuffix) {
    return counts.entrySet().stream()
        .filter(e -> e.getKey().startsWith(method + " ") && e.getKey().endsWith(pathSuffix))
        .mapToInt(e -> e.getValue().get())
        .sum();
  }

  /** Every request the server received from a client whose User-Agent starts with {@code agent}. */
  List<ApiRequest> requestsFrom(String agent) {
    return requests.stream().filter(r -> r.userAgent().startsWith(agent)).toList();
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    String agent = request.getHeader("User-Agent");
    requests.add(ApiRequest.of(request.getMethod(), request.getPath(), agent == null ? "" : agent));
    counts
        .computeIfAbsent(request.getMethod() + " " + path(request), k -> new AtomicInteger())
        .incrementAndGet();
    for (Fault f : faults) {
      if (f.matches().test(request)) {
        int left = f.left().get();
        if (left < 0 || f.left().getAndDecrement() > 0) {
          return new MockResponse()
              .setResponseCode(f.code())
              .setBody(
                  "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":"
                      + f.code()
                      + ",\"message\":\"injected by the test\"}");
        }
      }
    }
    MockResponse intercepted = interceptor.apply(request);
    if (intercepted != null) {
      return intercepted;
    }
    MockResponse response = delegate.dispatch(request);
    WebSocketListener listener = response.getWebSocketListener();
    if (listener == null) {
      return response;
    }
    return new MockResponse().withWebSocketUpgrade(new Tracking(listener));
  }

  @Override
  public void shutdown() {
    delegate.shutdown();
  }

  private static String path(RecordedRequest r) {
    String p = r.getPath();
    int q = p.indexOf('?');
    return q < 0 ? p : p.substring(0, q);
  }

  private static final String FABRIC8_WATCH_LISTENER =
      "io.fabric8.kubernetes.client.server.mock.WatchEventsListener";

  /** Remembers the socket of a watch so that it can be dropped. */
  private final class Tracking extends WebSocketListener {
    private final WebSocketListener inner;

    Tracking(WebSocketListener inner) {
      this.inner = inner;
    }

    @Override
    public void onBeforeAccept(WebSocket webSocket, Response response) {
      inner.onBeforeAccept(webSocket, response);
    }

    @Override
    public void onOpen(WebSocket webSocket, Response response) {
      sockets.add(webSocket);
      inner.onOpen(webSocket, response);
    }

    @Override
    public void onMessage(WebSocket webSocket, String text) {
      inner.onMessage(webSocket, text);
    }

    @Override
    public void onClosing(WebSocket webSocket, int code, String reason) {
      sockets.remove(webSocket);
      leaveTheServersWatches();
      inner.onClosing(webSocket, code, reason);
    }

    // fabric8's watch listener waits (up to a minute) for its sending thread when a watch ends, and
    // is called on the server's event loop; a send still queued on that thread needs the event
    // loop, so the two wait on each other and the server cannot close in time. Ending the watch on
    // a thread of its own keeps the event loop free.
    @Override
    public void onClosed(WebSocket webSocket, int code, String reason) {
      sockets.remove(webSocket);
      leaveTheServersWatches();
      offTheEventLoop(() -> inner.onClosed(webSocket, code, reason));
    }

    @Override
    public void onFailure(WebSocket webSocket, Throwable error, Response response) {
      sockets.remove(webSocket);
      leaveTheServersWatches();
      offTheEventLoop(() -> inner.onFailure(webSocket, error, response));
    }

    /**
     * Takes fabric8's watch listener out of the CRUD server's list of watches, here on the event
     * loop, before it ends. It would leave the list only after stopping its sending thread, and
     * (ended on a thread of its own, above) well after: an object created in between was handed to
     * a stopped thread, the server failed inside that create and never answered it, and the
     * client's request timed out (the rare "request timed out" of a create right after watches
     * closed). {@code WatchDropRaceTest} makes that happen.
     */
    private void leaveTheServersWatches() {
      if (!inner.getClass().getName().equals(FABRIC8_WATCH_LISTENER)) {
        return; // a test's own listener, on no list
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
