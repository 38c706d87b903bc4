package dev.caldera.cdstraining;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The smallest API server {@code caldera run --kubeconfig} starts against, for the class data
 * training ({@link CdsTraining}) and the runtime's tests only: on loopback, plain HTTP, no
 * authentication. It lists the demo cluster's nodes, queues and priority classes and a few pending
 * gangs, holds every watch open without events, and accepts every write (binds, events, status) by
 * echoing it. A session then schedules the gangs, so the training loads what a start against a real
 * cluster loads: the client, the informers, the readers of every watched kind, the scheduling loop
 * and the writer.
 */
public final class TrainingApiServer implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Objects by resource (plural, as in the request path). */
  private final Map<String, List<ObjectNode>> objects = new TreeMap<>();

  private final HttpServer server;
  private final ExecutorService handlers;
  private final CountDownLatch closing = new CountDownLatch(1);

  /** Every gang's size and minMember. */
  private static final int PODS_PER_GANG = 2;

  private final AtomicInteger binds = new AtomicInteger();
  private final int pods;

  /** Serves the objects of {@code demo} (the YAML files of conf/demo) and {@code gangs} gangs. */
  public static TrainingApiServer start(Path demo, int gangs) throws IOException {
    return new TrainingApiServer(demo, gangs);
  }

  private TrainingApiServer(Path demo, int gangs) throws IOException {
    List<Path> files;
    try (var listing = Files.list(demo)) {
      files = listing.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    }
    YAMLMapper yaml = new YAMLMapper();
    for (Path file : files) {
      try (var parser = yaml.createParser(file.toFile())) {
        for (var it = yaml.readValues(parser, ObjectNode.class); it.hasNext(); ) {
          ObjectNode object = it.next();
          if (object != null && object.hasNonNull("kind")) {
            add(object);
          }
        }
      } catch (IOException | RuntimeException e) {
        String reason = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
        throw new IOException("cannot read " + file + ": " + reason, e);
      }
    }
    add(object("v1", "Namespace", null, "default"));
    pods = gangs * PODS_PER_GANG;
    for (int g = 0; g < gangs; g++) {
      String name = "training-gang-" + g;
      ObjectNode group = object("scheduling.volcano.sh/v1beta1", "PodGroup", "default", name);
      group.putObject("spec").put("minMember", PODS_PER_GANG).put("queue", "training");
      group.putObject("status").put("phase", "Pending");
      add(group);
      for (int p = 0; p < PODS_PER_GANG; p++) {
        ObjectNode pod = object("v1", "Pod", "default", name + "-" + p);
        ((ObjectNode) pod.get("metadata"))
            .putObject("annotations")
            .put("scheduling.k8s.io/group-name", name);
        ObjectNode spec = pod.putObject("spec").put("schedulerName", "volcano");
        spec.putArray("containers")
            .addObject()
            .put("name", "main")
            .put("image", "busybox")
            .putObject("resources")
            .putObject("requests")
            .put("cpu", "1")
            .put("memory", "1Gi");
        pod.putObject("status").put("phase", "Pending");
        add(pod);
      }
    }
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    handlers =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "caldera-training-api");
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(handlers);
    server.createContext("/", this::handle);
    server.start();
  }

  /** The server's URL, e.g. {@code http://127.0.0.1:40123}. */
  public String url() {
    InetSocketAddress address = server.getAddress();
    return "http://" + address.getAddress().getHostAddress() + ":" + address.getPort();
  }

  /** A kubeconfig for this server, written to {@code file}. */
  public void writeKubeconfig(Path file) throws IOException {
    Files.writeString(
        file,
        String.join(
            "\n",
            "apiVersion: v1",
            "kind: Config",
            "clusters:",
            "- name: training",
            "  cluster: {server: '" + url() + "'}",
            "users:",
            "- name: training",
            "  user: {}",
            "contexts:",
            "- name: training",
            "  context: {cluster: training, user: training}",
            "current-context: training",
            ""));
  }

  /** Binds received so far. */
  public int binds() {
    return binds.get();
  }

  /** The pending pods the server holds: every one is bound once a session has scheduled all. */
  public int pods() {
    return pods;
  }

  @Override
  public void close() {
    closing.countDown();
    server.stop(0);
    handlers.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      String path = exchange.getRequestURI().getPath();
      String query = exchange.getRequestURI().getRawQuery();
      if (!"GET".equals(method)) {
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
          body = in.readAllBytes();
        }
        if (path.endsWith("/binding")) {
          binds.incrementAndGet();
        }
        // A patch's body is not the object; an empty object reads as any kind.
        send(exchange, "POST".equals(method) ? 201 : 200, method.equals("PATCH") ? EMPTY : body);
        return;
      }
      if (path.startsWith("/apis/metrics.k8s.io")) {
        send(exchange, 404, NOT_FOUND);
        return;
      }
      if (query != null && query.contains("watch=true")) {
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, 0);
        exchange.getResponseBody().flush();
        closing.await(); // a watch with no events, until the training ends
        return;
      }
      send(exchange, 200, JSON.writeValueAsBytes(list(path)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private ObjectNode list(String path) {
    String[] parts = path.split("/");
    String resource = parts[parts.length - 1];
    String namespace = null;
    for (int i = 0; i + 1 < parts.length; i++) {
      if (parts[i].equals("namespaces") && i + 2 < parts.length) {
        namespace = parts[i + 1];
      }
    }
    ObjectNode list = JSON.createObjectNode();
    list.put("apiVersion", "v1").put("kind", "List");
    list.putObject("metadata").put("resourceVersion", "1");
    ArrayNode items = list.putArray("items");
    for (ObjectNode object : objects.getOrDefault(resource, List.of())) {
      if (namespace == null
          || namespace.equals(object.path("metadata").path("namespace").asText())) {
        items.add(object);
      }
    }
    return list;
  }

  private void add(ObjectNode object) {
    String kind = object.path("kind").asText().toLowerCase(Locale.ROOT);
    String plural =
        kind.endsWith("s")
            ? kind + "es"
            : kind.endsWith("y") ? kind.replaceAll("y$", "ies") : kind + "s";
    JsonNode metadata = object.path("metadata");
    if (metadata.isObject() && !metadata.has("resourceVersion")) {
      ((ObjectNode) metadata).put("resourceVersion", "1");
      ((ObjectNode) metadata)
          .put("uid", "training-" + plural + "-" + metadata.path("name").asText());
      ((ObjectNode) metadata).put("creationTimestamp", "2026-01-01T00:00:00Z");
    }
    objects.computeIfAbsent(plural, k -> new ArrayList<>()).add(object);
  }

  private static ObjectNode object(String apiVersion, String kind, String namespace, String name) {
    ObjectNode object = JSON.createObjectNode().put("apiVersion", apiVersion).put("kind", kind);
    ObjectNode metadata = object.putObject("metadata").put("name", name);
    if (namespace != null) {
      metadata.put("namespace", namespace);
    }
    return object;
  }

  private static final byte[] EMPTY = "{}".getBytes(StandardCharsets.UTF_8);
  private static final byte[] NOT_FOUND =
      "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"NotFound\",\"code\":404}"
          .getBytes(StandardCharsets.UTF_8);

  private static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }
}
