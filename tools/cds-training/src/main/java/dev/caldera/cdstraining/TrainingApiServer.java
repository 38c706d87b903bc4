package dev.caldera.cdstraining;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The smallest API server {@code caldera run --kubeconfig} starts against, for the class data
 * training ({@link CdsTraining}) and the runtime's tests only. It is on loopback but otherwise
 * reached as a real kube-apiserver is: HTTPS with a serving certificate signed by an authority of
 * its own ({@link TrainingTls}, in the kubeconfig's {@code certificate-authority-data}) and a
 * bearer token (any token: a request without one is 401, as on a real server). It lists the demo
 * cluster's nodes, queues and priority classes and a few pending gangs, opens every watch with a
 * bookmark, and accepts every write (binds, events, status) by echoing it; a bind is followed, as
 * on a real server, by a {@code MODIFIED} event of the pod with its node on every pod watch. A
 * session then schedules the gangs, so the training loads what a start against a real cluster
 * loads: TLS and the certificate path check, the client, the informers, the readers of every
 * watched kind and of watch events, the scheduling loop and the writer. The JDK's HTTPS server
 * speaks HTTP/1.1 only, so the client's HTTP/2 classes are not trained.
 */
public final class TrainingApiServer implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Objects by resource (plural, as in the request path). */
  private final Map<String, List<ObjectNode>> objects = new TreeMap<>();

  private final HttpsServer server;
  private final ExecutorService handlers;
  private final TrainingTls tls;

  /** The events still to send on each open watch, by resource; {@link #CLOSE} ends the watch. */
  private final Map<String, List<BlockingQueue<byte[]>>> watches = new TreeMap<>();

  private static final byte[] CLOSE = new byte[0];

  /** The token the kubeconfig carries. */
  static final String TOKEN = "caldera-training-token";

  /** Every gang's size and minMember. */
  private static final int PODS_PER_GANG = 2;

  private final AtomicInteger binds = new AtomicInteger();
  private final int pods;

  /** Serves the objects of {@code demo} (the YAML files of conf/demo) and {@code gangs} gangs. */
  public static TrainingApiServer start(Path demo, int gangs) throws IOException {
    try {
      return start(demo, gangs, TrainingTls.create());
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot make the training API server's certificates: " + e, e);
    }
  }

  /** As {@link #start(Path, int)}, with the certificates of {@code tls}. */
  static TrainingApiServer start(Path demo, int gangs, TrainingTls tls) throws IOException {
    return new TrainingApiServer(demo, gangs, tls);
  }

  private TrainingApiServer(Path demo, int gangs, TrainingTls tls) throws IOException {
    this.tls = tls;
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
      addGang("training-gang-" + g, "1");
    }
    // A gang no node has room for, as a real cluster nearly always has one: the sessions' fit
    // errors, the waiting and the events of pods that stay pending.
    addGang(UNFIT_GANG, "100000");
    server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(
        new HttpsConfigurator(tls.serverContext()) {
          @Override
          public void configure(com.sun.net.httpserver.HttpsParameters parameters) {
            parameters.setSSLParameters(tls.serverParameters());
          }
        });
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

  /** The gang that never fits. */
  static final String UNFIT_GANG = "training-unfit";

  private void addGang(String name, String cpu) {
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
      // What the API server's admission adds to every pod.
      spec.putArray("tolerations")
          .addObject()
          .put("key", "node.kubernetes.io/not-ready")
          .put("operator", "Exists")
          .put("effect", "NoExecute")
          .put("tolerationSeconds", 300);
      spec.putArray("containers")
          .addObject()
          .put("name", "main")
          .put("image", "busybox")
          .putObject("resources")
          .putObject("requests")
          .put("cpu", cpu)
          .put("memory", "1Gi");
      pod.putObject("status").put("phase", "Pending");
      add(pod);
    }
  }

  /** The server's URL, e.g. {@code https://127.0.0.1:40123}. */
  public String url() {
    InetSocketAddress address = server.getAddress();
    return "https://" + address.getAddress().getHostAddress() + ":" + address.getPort();
  }

  /**
   * The authority of the server's certificate, base64 of its PEM, as a kubeconfig's {@code
   * certificate-authority-data} holds it.
   */
  public String certificateAuthorityData() {
    return tls.certificateAuthorityData();
  }

  /** A client context that trusts this server's authority only. */
  public javax.net.ssl.SSLContext clientContext() {
    return trusting(tls);
  }

  /** A client context that trusts the authority of {@code tls} only. */
  static javax.net.ssl.SSLContext trusting(TrainingTls tls) {
    try {
      java.security.KeyStore trusted = java.security.KeyStore.getInstance("PKCS12");
      trusted.load(null, null);
      trusted.setCertificateEntry("ca", tls.certificateAuthority());
      javax.net.ssl.TrustManagerFactory managers =
          javax.net.ssl.TrustManagerFactory.getInstance(
              javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
      managers.init(trusted);
      javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLS");
      context.init(null, managers.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException(e);
    }
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
            "  cluster:",
            "    server: '" + url() + "'",
            "    certificate-authority-data: " + certificateAuthorityData(),
            "users:",
            "- name: training",
            "  user: {token: " + TOKEN + "}",
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

  /**
   * The pending pods of the gangs that fit: every one is bound once a session has scheduled all
   * (the unfit gang's pods stay pending).
   */
  public int pods() {
    return pods;
  }

  @Override
  public void close() {
    synchronized (watches) {
      watches.values().forEach(queues -> queues.forEach(q -> q.add(CLOSE)));
      watches.clear();
    }
    server.stop(0);
    handlers.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      String path = exchange.getRequestURI().getPath();
      String query = exchange.getRequestURI().getRawQuery();
      String authorization = exchange.getRequestHeaders().getFirst("Authorization");
      if (authorization == null || !authorization.startsWith("Bearer ")) {
        send(exchange, 401, UNAUTHORIZED);
        return;
      }
      if (!"GET".equals(method)) {
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
          body = in.readAllBytes();
        }
        if (path.endsWith("/binding")) {
          binds.incrementAndGet();
          bound(path, body);
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
        watch(exchange, path, query.contains("allowWatchBookmarks=true"));
        return;
      }
      send(exchange, 200, JSON.writeValueAsBytes(list(path)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * A watch as a real server streams it (chunked, one JSON event a line): a bookmark first when
   * asked for, then the events of {@link #bound}, until the server closes.
   */
  private void watch(HttpExchange exchange, String path, boolean bookmarks)
      throws IOException, InterruptedException {
    String resource = resource(path);
    BlockingQueue<byte[]> events = new LinkedBlockingQueue<>();
    synchronized (watches) {
      watches.computeIfAbsent(resource, r -> new CopyOnWriteArrayList<>()).add(events);
    }
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, 0);
    OutputStream out = exchange.getResponseBody();
    String kind = KINDS.get(resource);
    if (bookmarks && kind != null) {
      // A bookmark names the kind (a client refuses one that does not) and nothing else.
      ObjectNode object =
          JSON.createObjectNode().put("apiVersion", apiVersion(path)).put("kind", kind);
      object.putObject("metadata").put("resourceVersion", "1");
      write(out, event("BOOKMARK", object));
    }
    out.flush();
    for (byte[] event = events.take(); event != CLOSE; event = events.take()) {
      write(out, event);
    }
  }

  private static void write(OutputStream out, byte[] event) throws IOException {
    out.write(event);
    out.write('\n');
    out.flush();
  }

  private static byte[] event(String type, ObjectNode object) throws IOException {
    ObjectNode event = JSON.createObjectNode().put("type", type);
    event.set("object", object);
    return JSON.writeValueAsBytes(event);
  }

  /** The pod of a binding, now on its node, to every pod watch. */
  private void bound(String path, byte[] binding) throws IOException {
    String[] parts = path.split("/");
    String name = parts[parts.length - 2];
    String node;
    try {
      node = JSON.readTree(binding).path("target").path("name").asText("");
    } catch (IOException e) {
      return; // not a binding: nothing to tell the watches
    }
    for (ObjectNode pod : objects.getOrDefault("pods", List.of())) {
      if (pod.path("metadata").path("name").asText().equals(name)) {
        ObjectNode modified = pod.deepCopy();
        ((ObjectNode) modified.get("spec")).put("nodeName", node);
        ((ObjectNode) modified.get("metadata"))
            .put("resourceVersion", Integer.toString(1 + binds.get()));
        byte[] event = event("MODIFIED", modified);
        synchronized (watches) {
          watches.getOrDefault("pods", List.of()).forEach(q -> q.add(event));
        }
      }
    }
  }

  /** The kinds Caldera watches, by resource. */
  private static final Map<String, String> KINDS =
      Map.ofEntries(
          Map.entry("nodes", "Node"),
          Map.entry("pods", "Pod"),
          Map.entry("namespaces", "Namespace"),
          Map.entry("priorityclasses", "PriorityClass"),
          Map.entry("poddisruptionbudgets", "PodDisruptionBudget"),
          Map.entry("resourcequotas", "ResourceQuota"),
          Map.entry("persistentvolumes", "PersistentVolume"),
          Map.entry("persistentvolumeclaims", "PersistentVolumeClaim"),
          Map.entry("storageclasses", "StorageClass"),
          Map.entry("csinodes", "CSINode"),
          Map.entry("queues", "Queue"),
          Map.entry("podgroups", "PodGroup"),
          Map.entry("pluginbundles", "PluginBundle"));

  /**
   * {@code v1} of {@code /api/v1/...}, {@code GROUP/VERSION} of {@code /apis/GROUP/VERSION/...}.
   */
  private static String apiVersion(String path) {
    String[] parts = path.split("/");
    return parts[1].equals("api") ? parts[2] : parts[2] + "/" + parts[3];
  }

  private static String resource(String path) {
    String[] parts = path.split("/");
    return parts[parts.length - 1];
  }

  private ObjectNode list(String path) {
    String[] parts = path.split("/");
    String resource = resource(path);
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
  private static final byte[] UNAUTHORIZED =
      "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"Unauthorized\",\"reason\":\"Unauthorized\",\"code\":401}"
          .getBytes(StandardCharsets.UTF_8);
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
