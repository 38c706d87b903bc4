package dev.caldera.plugins.extender;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A real extender for tests: an HTTP server on 127.0.0.1 (ephemeral port) that records every
 * request by path and answers with what the test scripted for that path (200 with {@code {}} by
 * default).
 */
final class FakeExtender implements AutoCloseable {

  /** A scripted answer. */
  record Answer(int status, byte[] body, boolean hang) {}

  /** A recorded request. */
  record Request(String method, String path, String contentType, JsonNode body) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final Map<String, Answer> answers = new ConcurrentHashMap<>();
  private final List<Request> requests = java.util.Collections.synchronizedList(new ArrayList<>());
  private final CountDownLatch release = new CountDownLatch(1);

  FakeExtender() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext("/", this::handle);
    server.setExecutor(executor);
    server.start();
  }

  /** {@code http://127.0.0.1:<port>}. */
  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Answers requests to {@code /<verb>} with status 200 and {@code json}. */
  FakeExtender answer(String verb, String json) {
    return answer(verb, 200, json);
  }

  /** Answers requests to {@code /<verb>} with {@code status} and {@code body}. */
  FakeExtender answer(String verb, int status, String body) {
    answers.put("/" + verb, new Answer(status, body.getBytes(StandardCharsets.UTF_8), false));
    return this;
  }

  /** Answers with raw bytes. */
  FakeExtender answer(String verb, byte[] body) {
    answers.put("/" + verb, new Answer(200, body, false));
    return this;
  }

  /** Never answers requests to {@code /<verb>} (until the extender is closed). */
  FakeExtender hang(String verb) {
    answers.put("/" + verb, new Answer(200, new byte[0], true));
    return this;
  }

  /** Every request so far, in arrival order. */
  List<Request> requests() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  /** The requests to {@code /<verb>}. */
  List<Request> requests(String verb) {
    return requests().stream().filter(r -> r.path().equals("/" + verb)).toList();
  }

  /** The body of the only request to {@code /<verb>}. */
  JsonNode only(String verb) {
    List<Request> r = requests(verb);
    if (r.size() != 1) {
      throw new AssertionError("expected one request to /" + verb + ", got " + r.size());
    }
    return r.get(0).body();
  }

  private void handle(HttpExchange exchange) throws IOException {
    byte[] in = exchange.getRequestBody().readAllBytes();
    JsonNode body = in.length == 0 ? null : JSON.readTree(in);
    String path = exchange.getRequestURI().getPath();
    requests.add(
        new Request(
            exchange.getRequestMethod(),
            path,
            exchange.getRequestHeaders().getFirst("Content-Type"),
            body));
    Answer a =
        answers.getOrDefault(path, new Answer(200, "{}".getBytes(StandardCharsets.UTF_8), false));
    if (a.hang()) {
      try {
        release.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(a.status(), a.body().length == 0 ? -1 : a.body().length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(a.body());
    } catch (IOException e) {
      // The client gave up (timeout or body limit); nothing to do.
    }
  }

  @Override
  public void close() {
    release.countDown();
    server.stop(0);
    executor.shutdownNow();
  }
}
