package dev.caldera.plugins.usage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.caldera.api.model.NodeMetrics;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Node usage from a Prometheus server, as Volcano's Prometheus metrics source reads it: the
 * recording rules {@value #CPU_QUERY} and {@value #MEMORY_QUERY} (average percent used over the
 * last 10 minutes, one series per node) through the instant-query API {@code GET /api/v1/query}.
 * Both queries run at once and must answer within the timeout together.
 *
 * <p>A series names its node by the label {@code node}, else {@code instance} (without a {@code
 * :port}); its sample time is the metrics' update time, so stale rules are ignored as stale
 * metrics-server data is.
 */
final class PrometheusMetrics {

  static final String CPU_QUERY = "cpu_usage_avg_10m";
  static final String MEMORY_QUERY = "mem_usage_avg_10m";

  /** How much of an answer is read at most: a node's series is about 200 bytes. */
  private static final int MAX_BODY_BYTES = 64 << 20;

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .followRedirects(HttpClient.Redirect.NORMAL)
          .build();

  private final URI address;
  private final Duration timeout;

  PrometheusMetrics(URI address, Duration timeout) {
    this.address = address;
    this.timeout = timeout;
  }

  /** Why the metrics could not be read, in one line naming the server and the query. */
  static final class UnavailableException extends Exception {
    private static final long serialVersionUID = 1L;

    UnavailableException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * The usage of every node Prometheus knows, by node name.
   *
   * @throws UnavailableException when the server does not answer in time, answers with an error or
   *     with something that is not a Prometheus vector
   */
  Map<String, NodeMetrics> fetch() throws UnavailableException {
    long deadline = System.nanoTime() + timeout.toNanos();
    CompletableFuture<HttpResponse<byte[]>> cpu = send(CPU_QUERY);
    CompletableFuture<HttpResponse<byte[]>> memory = send(MEMORY_QUERY);
    Map<String, Sample> cpuSamples = samples(CPU_QUERY, await(CPU_QUERY, cpu, deadline));
    Map<String, Sample> memorySamples =
        samples(MEMORY_QUERY, await(MEMORY_QUERY, memory, deadline));
    Map<String, NodeMetrics> out = new TreeMap<>();
    cpuSamples.forEach(
        (node, c) -> {
          Sample m = memorySamples.get(node);
          Instant updated = m == null || c.time().isBefore(m.time()) ? c.time() : m.time();
          out.put(node, new NodeMetrics(c.value(), m == null ? 0 : m.value(), updated));
        });
    memorySamples.forEach(
        (node, m) -> out.putIfAbsent(node, new NodeMetrics(0, m.value(), m.time())));
    return out;
  }

  private record Sample(double value, Instant time) {}

  private URI queryUri(String query) {
    String base = address.toString();
    if (base.endsWith("/")) {
      base = base.substring(0, base.length() - 1);
    }
    return URI.create(
        base + "/api/v1/query?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8));
  }

  private CompletableFuture<HttpResponse<byte[]>> send(String query) {
    HttpRequest request =
        HttpRequest.newBuilder(queryUri(query))
            .timeout(timeout)
            .header("Accept", "application/json")
            .GET()
            .build();
    return CLIENT.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray());
  }

  private HttpResponse<byte[]> await(
      String query, CompletableFuture<HttpResponse<byte[]>> future, long deadline)
      throws UnavailableException {
    String what = "Prometheus " + address + ", query " + query;
    try {
      long left = Math.max(0, deadline - System.nanoTime());
      HttpResponse<byte[]> response = future.get(left, TimeUnit.NANOSECONDS);
      if (response.statusCode() != 200) {
        throw new UnavailableException(
            what + ": HTTP " + response.statusCode() + " " + excerpt(response.body()), null);
      }
      if (response.body().length > MAX_BODY_BYTES) {
        throw new UnavailableException(
            what + ": answer larger than " + MAX_BODY_BYTES + " bytes", null);
      }
      return response;
    } catch (TimeoutException e) {
      future.cancel(true);
      throw failure(what, e, timeout);
    } catch (ExecutionException e) {
      throw failure(what, e.getCause() == null ? e : e.getCause(), timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      future.cancel(true);
      throw new UnavailableException(what + ": interrupted", e);
    }
  }

  /**
   * The error for a query that failed with {@code cause}. The request carries the same timeout as
   * the wait for it, so either may end it first; both are one and the same warning, so that the
   * plugin does not warn again for a message that only differs in which timer fired.
   */
  static UnavailableException failure(String what, Throwable cause, Duration timeout) {
    if (cause instanceof TimeoutException || cause instanceof HttpTimeoutException) {
      return new UnavailableException(
          what + ": no answer within " + timeout.toMillis() + "ms (usage.metrics.timeout)", cause);
    }
    return new UnavailableException(what + ": " + describe(cause), cause);
  }

  private static String describe(Throwable t) {
    String message = t.getMessage();
    return t.getClass().getSimpleName() + (message == null ? "" : " " + message);
  }

  private Map<String, Sample> samples(String query, HttpResponse<byte[]> response)
      throws UnavailableException {
    String what = "Prometheus " + address + ", query " + query;
    JsonNode root;
    try {
      root = JSON.readTree(response.body());
    } catch (IOException e) {
      throw new UnavailableException(what + ": the answer is not JSON", e);
    }
    if (root == null || !"success".equals(root.path("status").asText())) {
      String error = root == null ? "" : root.path("error").asText("");
      throw new UnavailableException(
          what + ": status is not success" + (error.isEmpty() ? "" : " (" + error + ")"), null);
    }
    JsonNode data = root.path("data");
    if (!"vector".equals(data.path("resultType").asText()) || !data.path("result").isArray()) {
      throw new UnavailableException(
          what + ": expected data.resultType vector with a result list", null);
    }
    Map<String, Sample> out = new HashMap<>();
    for (JsonNode series : data.path("result")) {
      String node = nodeName(series.path("metric"));
      JsonNode value = series.path("value");
      if (node == null || !value.isArray() || value.size() != 2) {
        throw new UnavailableException(
            what + ": a series without a node or instance label and a [time, value] pair", null);
      }
      try {
        double percent = Double.parseDouble(value.get(1).asText());
        long millis = Math.round(value.get(0).asDouble() * 1000);
        if (Double.isFinite(percent)) {
          out.put(node, new Sample(percent, Instant.ofEpochMilli(millis)));
        }
      } catch (NumberFormatException e) {
        throw new UnavailableException(
            what + ": value \"" + value.get(1).asText() + "\" of node " + node + " is not a number",
            e);
      }
    }
    return out;
  }

  private static String nodeName(JsonNode labels) {
    String node = labels.path("node").asText("");
    if (!node.isEmpty()) {
      return node;
    }
    String instance = labels.path("instance").asText("");
    if (instance.isEmpty()) {
      return null;
    }
    int colon = instance.lastIndexOf(':');
    return colon > 0 && instance.indexOf(']') < colon ? instance.substring(0, colon) : instance;
  }

  private static String excerpt(byte[] body) {
    String text = new String(body, 0, Math.min(body.length, 200), StandardCharsets.UTF_8).strip();
    return text.replaceAll("\\s+", " ");
  }
}
