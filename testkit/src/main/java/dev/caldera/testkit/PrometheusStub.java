package dev.caldera.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A Prometheus server for tests, on a free port of 127.0.0.1: answers the instant-query API ({@code
 * GET /api/v1/query?query=NAME}) with a vector of the samples set for that metric name, one series
 * per node (label {@code instance}). Answers can be delayed or replaced by an HTTP error to test
 * timeouts and failures. Every query is recorded.
 */
public final class PrometheusStub implements AutoCloseable {

  private record Sample(String node, double value, Instant time) {}

  private final HttpServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final Map<String, List<Sample>> samples = new ConcurrentHashMap<>();
  private final List<String> queries = new CopyOnWriteArrayList<>();
  private volatile Duration delay = Duration.ZERO;
  private volatile int status = 200;
  private volatile String body;

  /** Starts the server. */
  public PrometheusStub() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/api/v1/query", this::answer);
    server.setExecutor(executor);
    server.start();
  }

  /** The base URL, e.g. {@code http://127.0.0.1:43121}. */
  public URI address() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Adds a sample of {@code metric} for {@code node}, measured at {@code time}. */
  public PrometheusStub sample(String metric, String node, double value, Instant time) {
    samples
        .computeIfAbsent(metric, m -> new CopyOnWriteArrayList<>())
        .add(new Sample(node, value, time));
    return this;
  }

  /** Every answer waits this long first. */
  public PrometheusStub delay(Duration delay) {
    this.delay = delay;
    return this;
  }

  /** Every answer is this HTTP status with this body (200 and null: the samples again). */
  public PrometheusStub answer(int status, String body) {
    this.status = status;
    this.body = body;
    return this;
  }

  /** The query texts received, in order. */
  public List<String> queries() {
    return new ArrayList<>(queries);
  }

  private void answer(HttpExchange exchange) throws IOException {
    try (exchange) {
      String query = queryParameter(exchange.getRequestURI().getRawQuery());
      queries.add(query);
      if (!delay.isZero()) {
        try {
          Thread.sleep(delay.toMillis());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
      String text = body != null ? body : vector(samples.getOrDefault(query, List.of()));
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  private static String queryParameter(String rawQuery) {
    Map<String, String> params = new TreeMap<>();
    if (rawQuery != null) {
      for (String pair : rawQuery.split("&")) {
        int eq = pair.indexOf('=');
        if (eq > 0) {
          params.put(
              pair.substring(0, eq),
              URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
      }
    }
    return params.getOrDefault("query", "");
  }

  private static String vector(List<Sample> series) {
    StringBuilder b =
        new StringBuilder("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\"");
    b.append(",\"result\":[");
    for (int i = 0; i < series.size(); i++) {
      Sample s = series.get(i);
      if (i > 0) {
        b.append(',');
      }
      b.append("{\"metric\":{\"instance\":\"")
          .append(s.node())
          .append(":9100\"},\"value\":[")
          .append(String.format(Locale.ROOT, "%.3f", s.time().toEpochMilli() / 1000.0))
          .append(",\"")
          .append(String.format(Locale.ROOT, "%s", s.value()))
          .append("\"]}");
    }
    return b.append("]}}").toString();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
