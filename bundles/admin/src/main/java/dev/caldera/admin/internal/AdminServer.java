package dev.caldera.admin.internal;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.caldera.api.host.MetricsSource;
import dev.caldera.framework.loop.ClusterExport;
import dev.caldera.framework.loop.Health;
import dev.caldera.framework.loop.LoopEvent;
import dev.caldera.framework.loop.QueueInsight;
import dev.caldera.framework.loop.QueueLifecycle;
import dev.caldera.framework.loop.SchedulerMonitor;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The admin HTTP server (JDK {@code com.sun.net.httpserver}):
 *
 * <ul>
 *   <li>{@code GET /}: the web console for a browser (a client that accepts {@code text/html}), the
 *       plain-text index of the API otherwise; {@code GET /api}: that index always.
 *   <li>{@code GET /healthz}: 200 while the loop lives; {@code GET /readyz}: 200 while sessions
 *       run, 503 while scheduling is held (with the reasons).
 *   <li>{@code GET /metrics}: Prometheus text, or OpenMetrics for {@code Accept:
 *       application/openmetrics-text}.
 *   <li>{@code GET /api/plugins}, {@code /api/conf}, {@code /api/policies}, {@code /api/sessions},
 *       {@code /api/evictions}, {@code /api/nodes}, {@code /api/events}, {@code /api/bundles}:
 *       JSON.
 *   <li>{@code POST /api/bundles[?name=FILE.jar]} with a jar as the body, and {@code DELETE
 *       /api/bundles/NAME}: install and uninstall, only with {@code Authorization: Bearer TOKEN}
 *       when a token is configured; refused with 401 otherwise.
 *   <li>{@code POST /api/queues/NAME/close}, {@code .../drain}, {@code .../open}: a queue's
 *       lifecycle, with the token as the bundle writes.
 * </ul>
 */
public final class AdminServer implements AutoCloseable {

  private static final int MAX_JAR_BYTES = 64 * 1024 * 1024;

  /**
   * Requests handled at once. The JDK server reads a request's headers on a handler thread, so a
   * client that opens a connection and never finishes its request holds a thread until the read
   * timeout closes it: many threads keep probes answered while slow clients hold some.
   */
  static final int MAX_HANDLER_THREADS = 128;

  /** Seconds a client has to send its request headers before the connection is closed. */
  static final String REQUEST_TIMEOUT_SECONDS = "10";

  /** Seconds a client has to read a response before the connection is closed. */
  static final String RESPONSE_TIMEOUT_SECONDS = "30";

  static {
    // Read once by the JDK server's configuration, when the first server starts in this JVM; an
    // operator's own -D setting wins.
    setIfAbsent("sun.net.httpserver.maxReqTime", REQUEST_TIMEOUT_SECONDS);
    setIfAbsent("sun.net.httpserver.maxRspTime", RESPONSE_TIMEOUT_SECONDS);
    // The JDK server writes a response's headers and its body in two writes: with Nagle's
    // algorithm the body waits for the client's delayed acknowledgement of the headers (~40 ms on
    // every keep-alive request). No delay sends each write at once.
    setIfAbsent("sun.net.httpserver.nodelay", "true");
  }

  /** Runs the static configuration above (for the probe server, which may start first). */
  static void configureJdkServer() {}

  private static void setIfAbsent(String property, String value) {
    if (System.getProperty(property) == null) {
      System.setProperty(property, value);
    }
  }

  private static final ObjectMapper JSON =
      new ObjectMapper()
          .registerModule(new JavaTimeModule())
          .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
          .enable(SerializationFeature.INDENT_OUTPUT);

  private final AdminBackend backend;
  private final byte[] token;
  private final HostCheck hosts;
  private final HttpServer server;
  private final ExecutorService executor;

  /**
   * Binds {@code address} and starts serving, answering the {@code Host} names {@link HostCheck}
   * allows by default.
   *
   * @param token null or empty when bundle installs are disabled
   * @throws IOException when the address cannot be bound
   * @throws IllegalArgumentException when the token is not visible ASCII ({@link #tokenProblem})
   */
  public AdminServer(InetSocketAddress address, String token, AdminBackend backend)
      throws IOException {
    this(address, token, List.of(), backend);
  }

  /**
   * Binds {@code address} and starts serving.
   *
   * @param token null or empty when bundle installs are disabled
   * @param allowedHosts {@code Host} names answered beyond IP addresses, localhost and this host's
   *     names; {@code *} for any
   * @throws IOException when the address cannot be bound
   * @throws IllegalArgumentException when the token is not visible ASCII ({@link #tokenProblem})
   */
  public AdminServer(
      InetSocketAddress address, String token, List<String> allowedHosts, AdminBackend backend)
      throws IOException {
    this.backend = backend;
    if (token != null && !token.isEmpty()) {
      Optional<String> problem = tokenProblem(token);
      if (problem.isPresent()) {
        throw new IllegalArgumentException(problem.get());
      }
    }
    this.token =
        token == null || token.isEmpty() ? null : token.getBytes(StandardCharsets.US_ASCII);
    // The name the server was told to listen on is one of its own.
    List<String> names = new ArrayList<>(allowedHosts);
    names.add(address.getHostString());
    this.hosts = new HostCheck(names);
    this.server = HttpServer.create(address, 256);
    this.executor = handlerPool(MAX_HANDLER_THREADS, "caldera-admin");
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  /**
   * The threads a server's handlers run on: at most {@code threads}, daemons named {@code name},
   * gone after 30 s idle; requests beyond them wait in line.
   */
  static ExecutorService handlerPool(int threads, String name) {
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            threads,
            threads,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, name);
              t.setDaemon(true);
              return t;
            });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  /** The bound address (the port chosen when 0 was asked). */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  /**
   * Why {@code token} can never match a request's {@code Authorization} header, if it cannot: a
   * header carries visible ASCII only (RFC 7230), so a token with other characters (non-ASCII,
   * spaces, controls) is refused at start rather than accepted and never matched.
   */
  public static Optional<String> tokenProblem(String token) {
    for (int i = 0; i < token.length(); i++) {
      char c = token.charAt(i);
      if (c < 0x21 || c > 0x7e) {
        return Optional.of(
            String.format(
                "admin token: character %d (U+%04X) is not visible ASCII; a bearer token is"
                    + " letters, digits and ASCII punctuation (e.g. openssl rand -hex 32)",
                i + 1, (int) c));
      }
    }
    return Optional.empty();
  }

  private void handle(HttpExchange ex) throws IOException {
    respond(ex, answer(ex));
  }

  private Response answer(HttpExchange ex) {
    String host = ex.getRequestHeaders().getFirst("Host");
    if (!hosts.allows(host)) {
      return Response.json(421, Map.of("error", HostCheck.refusal(host)));
    }
    try {
      return route(ex);
    } catch (AdminException e) {
      return Response.json(e.status(), Map.of("error", e.getMessage()));
    } catch (IOException | RuntimeException e) {
      // A bug or a broken connection: the client gets no Java exception text, the log gets it all.
      System.err.println(
          "warning: admin: "
              + ex.getRequestMethod()
              + " "
              + ex.getRequestURI().getRawPath()
              + " failed: "
              + e);
      return Response.json(
          500,
          Map.of(
              "error",
              ex.getRequestMethod()
                  + " "
                  + ex.getRequestURI().getRawPath()
                  + " failed inside the scheduler; its log has the details"));
    }
  }

  /** Writes {@code r} and ends the exchange. */
  static void respond(HttpExchange ex, Response r) throws IOException {
    try (ex) {
      byte[] body = r.body();
      ex.getResponseHeaders().set("Content-Type", r.contentType());
      r.headers().forEach((k, v) -> ex.getResponseHeaders().set(k, v));
      if (r.status() == 401) {
        ex.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"caldera\"");
      }
      ex.sendResponseHeaders(r.status(), body.length == 0 ? -1 : body.length);
      if (body.length > 0) {
        try (OutputStream out = ex.getResponseBody()) {
          out.write(body);
        }
      }
    }
  }

  Response route(HttpExchange ex) throws AdminException, IOException {
    String method = ex.getRequestMethod();
    URI uri = ex.getRequestURI();
    // Fixed routes compare the path as sent; names in it are decoded once, segment by segment.
    String path = uri.getRawPath();
    List<String> segments = PathSegments.decode(path);
    Map<String, String> query = query(uri.getRawQuery());
    if (path.equals("/api/bundles") && method.equals("POST")) {
      authorize(ex, "POST /api/bundles");
      String name = query.get("name");
      if (name != null) {
        Optional<String> bad = DeployRules.badFileName(name);
        if (bad.isPresent()) {
          throw new AdminException(400, "name: " + bad.get());
        }
      }
      byte[] jar = readBody(ex.getRequestBody());
      BundleInfo b = backend.install(name, jar);
      report("BundleInstalled", "admin API installed " + b.symbolicName() + " " + b.version());
      return Response.json(201, b);
    }
    if (path.startsWith("/api/bundles/") && method.equals("DELETE")) {
      authorize(ex, "DELETE /api/bundles");
      if (segments.size() != 3) {
        throw new AdminException(404, "no such resource: " + path);
      }
      String name = segments.get(2);
      BundleInfo b = backend.uninstall(name);
      report("BundleUninstalled", "admin API uninstalled " + b.symbolicName() + " " + b.version());
      return Response.json(200, b);
    }
    if (path.startsWith("/api/queues/") && method.equals("POST")) {
      return queueCommand(ex, path, segments);
    }
    if (!method.equals("GET") && !method.equals("HEAD")) {
      throw new AdminException(405, method + " " + path + " is not supported");
    }
    Optional<SchedulerMonitor> monitor = backend.monitor();
    if (path.equals("/api/snapshot")) {
      // The cluster's objects (pod specs with their environment): the token's holders only.
      authorize(ex, "GET /api/snapshot");
      return snapshot(monitor, query);
    }
    if (path.startsWith("/api/queues/") || path.startsWith("/api/jobs/")) {
      return waiting(path, segments);
    }
    if (path.startsWith(Console.PREFIX)) {
      return Console.asset(path.substring(Console.PREFIX.length()))
          .orElseThrow(() -> new AdminException(404, "no such resource: " + path));
    }
    return switch (path) {
      case "/", "" ->
          Console.wanted(ex.getRequestHeaders().getFirst("Accept"))
              ? Console.page()
              : Response.text(200, index());
      case "/api" -> Response.text(200, index());
      case "/api/access" -> Response.json(200, access(ex));
      case "/healthz" -> health(monitor, false);
      case "/readyz" -> health(monitor, true);
      case "/metrics" -> {
        boolean openMetrics = wantsOpenMetrics(ex.getRequestHeaders().getFirst("Accept"));
        yield new Response(
            200,
            openMetrics ? Metrics.OPENMETRICS_CONTENT_TYPE : Metrics.CONTENT_TYPE,
            backend
                .metrics()
                .scrape(
                    monitor.map(SchedulerMonitor::metrics).orElse(null),
                    (int) backend.plugins().stream().filter(p -> p.bundle() != null).count(),
                    withInsight(backend.metricsSources()),
                    openMetrics)
                .getBytes(StandardCharsets.UTF_8));
      }
      case "/api/plugins" -> Response.json(200, backend.plugins());
      case "/api/bundles" -> Response.json(200, backend.bundles());
      case "/api/conf" -> Response.json(200, need(monitor).conf());
      case "/api/policies" -> Response.json(200, policies(need(monitor)));
      case "/api/sessions" -> Response.json(200, need(monitor).sessions(limit(query, 20)));
      case "/api/events" -> Response.json(200, need(monitor).events(limit(query, 50)));
      case "/api/status" -> Response.json(200, healthBody(need(monitor).health(), null));
      case "/api/queues" -> Response.json(200, queues(needInsight()));
      case "/api/evictions" -> Response.json(200, evictions(needInsight(), limit(query, 50)));
      case "/api/nodes" -> Response.json(200, nodes(needInsight()));
      default -> throw new AdminException(404, "no such resource: " + path);
    };
  }

  /**
   * The cluster as a scenario file with the conf and policies in force; {@code ?dropUnread=true}
   * leaves out what no plugin reads, {@code ?anonymize=true} replaces names by made-up ones, {@code
   * ?format=json} writes JSON (a YAML document that loads several times faster).
   */
  private Response snapshot(Optional<SchedulerMonitor> monitor, Map<String, String> query)
      throws AdminException {
    SchedulerMonitor m = need(monitor);
    ClusterExport.Request request =
        new ClusterExport.Request(
            ClusterExport.snapshotName(java.time.Instant.now()),
            m.conf().text(),
            m.policies(),
            Boolean.parseBoolean(query.getOrDefault("dropUnread", "false")),
            Boolean.parseBoolean(query.getOrDefault("anonymize", "false")),
            json(query.getOrDefault("format", "yaml")));
    Optional<String> exported;
    try {
      exported = backend.exportScenario(request);
    } catch (IllegalStateException notListed) {
      throw new AdminException(503, "no snapshot yet: " + notListed.getMessage());
    } catch (IllegalArgumentException refused) {
      throw new AdminException(400, refused.getMessage());
    }
    String scenario =
        exported.orElseThrow(
            () ->
                new AdminException(
                    404,
                    "no cluster source exports a snapshot (neither the embedded cluster nor one"
                        + " of --kubeconfig is running)"));
    return new Response(
        200,
        request.json() ? "application/json; charset=utf-8" : "application/yaml; charset=utf-8",
        scenario.getBytes(StandardCharsets.UTF_8));
  }

  /** {@code ?format=}: {@code yaml} (the default) or {@code json}. */
  private static boolean json(String format) throws AdminException {
    return switch (format) {
      case "yaml" -> false;
      case "json" -> true;
      default ->
          throw new AdminException(400, "format: expected yaml or json, got \"" + format + "\"");
    };
  }

  /**
   * {@code /api/queues/{name}/pending}: the queue's line; {@code /api/jobs/{ns}/{name}}: a pod
   * group, its blockers and its pods.
   */
  private Response waiting(String path, List<String> parts) throws AdminException {
    QueueInsight insight = needInsight();
    if (parts.size() == 4 && parts.get(1).equals("queues") && parts.get(3).equals("pending")) {
      String queue = parts.get(2);
      List<QueueInsight.Waiting> line =
          insight.pending(queue).orElseThrow(() -> new AdminException(404, "no queue " + queue));
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("queue", queue);
      body.put("lastSession", insight.lastSession());
      body.put("pending", line);
      return Response.json(200, body);
    }
    if (parts.size() == 4 && parts.get(1).equals("jobs")) {
      String ns = parts.get(2);
      String name = parts.get(3);
      QueueInsight.JobView job =
          insight
              .job(ns, name)
              .orElseThrow(
                  () ->
                      new AdminException(
                          404, "no pod group " + ns + "/" + name + " in the last session"));
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("lastSession", insight.lastSession());
      body.put("job", job);
      if (job.waiting() != null && job.waiting().position() > 0) {
        List<QueueInsight.Waiting> line = insight.pending(job.queue()).orElse(List.of());
        body.put(
            "ahead",
            line.subList(0, Math.min(line.size(), job.waiting().position() - 1)).stream()
                .map(QueueInsight.Waiting::podGroup)
                .toList());
      }
      return Response.json(200, body);
    }
    throw new AdminException(404, "no such resource: " + path);
  }

  private static Map<String, Object> queues(QueueInsight insight) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("lastSession", insight.lastSession());
    body.put("queues", insight.queues());
    body.put("orphans", insight.orphans());
    // The cluster's inventory per card model beside the queues' card quotas (the console's bars).
    body.put("cards", insight.cards());
    return body;
  }

  private QueueInsight needInsight() throws AdminException {
    return backend
        .insight()
        .orElseThrow(() -> new AdminException(503, "the scheduling loop is not running"));
  }

  static Response health(Optional<SchedulerMonitor> monitor, boolean readiness) {
    if (monitor.isEmpty()) {
      return Response.json(
          503, Map.of("status", "down", "reason", "the scheduling loop is not running"));
    }
    Health h = monitor.get().health();
    boolean ok = readiness ? h.ready() : h.live();
    return Response.json(
        ok ? 200 : 503, healthBody(h, ok ? "ok" : (readiness ? "not ready" : "down")));
  }

  /**
   * The loop's state as JSON: {@code state} is {@code running}, {@code standby} (another replica
   * leads), {@code waiting}, {@code holding}, ...; {@code reasons} say why no session runs.
   */
  private static Map<String, Object> healthBody(Health h, String status) {
    Map<String, Object> body = new LinkedHashMap<>();
    if (status != null) {
      body.put("status", status);
    }
    body.put("state", h.state());
    body.put("sessions", h.sessions());
    body.put("lastSession", h.lastSession());
    body.put("lastCycle", h.lastCycle());
    body.put("reasons", h.reasons());
    body.put("missingPlugins", h.missingPlugins());
    return body;
  }

  private static SchedulerMonitor need(Optional<SchedulerMonitor> monitor) throws AdminException {
    return monitor.orElseThrow(() -> new AdminException(503, "the scheduling loop is not running"));
  }

  private void authorize(HttpExchange ex, String what) throws AdminException {
    if (token == null) {
      throw new AdminException(
          401,
          what + " is disabled: start caldera run with --admin-token (or CALDERA_ADMIN_TOKEN)");
    }
    byte[] given =
        bearer(ex.getRequestHeaders().getFirst("Authorization"))
            .getBytes(StandardCharsets.ISO_8859_1);
    if (!MessageDigest.isEqual(given, token)) {
      throw new AdminException(401, what + " needs the header Authorization: Bearer <admin token>");
    }
  }

  /**
   * The credentials of an {@code Authorization: Bearer ...} header, or empty for none. The scheme
   * is case-insensitive (RFC 7235): {@code bearer t} is {@code Bearer t}.
   */
  static String bearer(String header) {
    if (header == null) {
      return "";
    }
    String h = header.strip();
    int space = h.indexOf(' ');
    if (space < 0 || !h.substring(0, space).equalsIgnoreCase("Bearer")) {
      return "";
    }
    return h.substring(space + 1).strip();
  }

  /**
   * Whether writes are possible and whether this request's token allows them: the console shows its
   * install and uninstall controls from this.
   */
  private Map<String, Object> access(HttpExchange ex) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("tokenConfigured", token != null);
    boolean authorized;
    try {
      authorize(ex, "writes");
      authorized = true;
    } catch (AdminException refused) {
      authorized = false;
    }
    body.put("authorized", authorized);
    return body;
  }

  /**
   * {@code POST /api/queues/NAME/close|drain|open}: 200 with the queue's state as requested, 404
   * for no such queue, 409 where Volcano's queue controller keeps the states (the message says what
   * to run instead) and where the command is refused (closing {@code root}, opening a queue under a
   * closed parent), 502 when the cluster refused the write, 503 without a source that offers it.
   */
  private Response queueCommand(HttpExchange ex, String path, List<String> segments)
      throws AdminException {
    QueueLifecycle.Command command = null;
    if (segments.size() == 4) {
      for (QueueLifecycle.Command c : QueueLifecycle.Command.values()) {
        if (c.word().equals(segments.get(3))) {
          command = c;
        }
      }
    }
    if (command == null) {
      throw new AdminException(
          404, "no such resource: " + path + " (POST /api/queues/NAME/close, drain or open)");
    }
    authorize(ex, "POST /api/queues/NAME/" + command.word());
    String queue = segments.get(2);
    QueueLifecycle.Outcome outcome =
        backend
            .queueCommand(queue, command)
            .orElseThrow(
                () ->
                    new AdminException(
                        503, "no cluster source that can close, drain or open queues is running"));
    int status =
        switch (outcome.result()) {
          case DONE -> 200;
          case NOT_FOUND -> 404;
          case KEPT_BY_VOLCANO, REFUSED -> 409;
          case FAILED -> 502;
        };
    if (status != 200) {
      throw new AdminException(status, outcome.message());
    }
    report(
        "Queue" + Character.toUpperCase(command.word().charAt(0)) + command.word().substring(1),
        "admin API: " + command.word() + " queue " + queue + ": " + outcome.message());
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("queue", queue);
    body.put("command", command.word());
    body.put("state", outcome.state());
    body.put("message", outcome.message());
    return Response.json(200, body);
  }

  private void report(String reason, String message) {
    backend.monitor().ifPresent(m -> m.report(LoopEvent.normal(reason, message)));
  }

  private static byte[] readBody(InputStream in) throws IOException, AdminException {
    byte[] body = in.readNBytes(MAX_JAR_BYTES + 1);
    if (body.length > MAX_JAR_BYTES) {
      throw new AdminException(413, "the jar is larger than " + MAX_JAR_BYTES + " bytes");
    }
    if (body.length == 0) {
      throw new AdminException(400, "the body must be the bundle's jar");
    }
    return body;
  }

  /**
   * The metric whose samples (label {@code policy}) are the audit disagreements shown with the
   * policies; the policy plugin counts them.
   */
  static final String AUDIT_DISAGREEMENTS = "caldera_policy_audit_disagreements_total";

  /**
   * {@code /api/policies}: the policy files in force (file → text) and, per policy in audit mode,
   * how often it disagreed with the enforced ones since the scheduler started.
   */
  private Map<String, Object> policies(SchedulerMonitor monitor) {
    Map<String, Long> disagreements = new java.util.TreeMap<>();
    for (MetricsSource source : backend.metricsSources()) {
      List<MetricsSource.Family> families;
      try {
        families = source.metrics();
      } catch (RuntimeException e) {
        continue; // /metrics names the failing source
      }
      for (MetricsSource.Family f : families) {
        if (!f.name().equals(AUDIT_DISAGREEMENTS)) {
          continue;
        }
        for (MetricsSource.Sample sample : f.samples()) {
          List<String> labels = sample.labels();
          for (int i = 0; i + 1 < labels.size(); i += 2) {
            if (labels.get(i).equals("policy")) {
              disagreements.merge(labels.get(i + 1), (long) sample.value(), Long::sum);
            }
          }
        }
      }
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("files", monitor.policies());
    body.put("auditDisagreements", disagreements);
    body.put("recentDisagreements", monitor.auditDisagreements());
    return body;
  }

  /**
   * {@code /api/nodes}: every node with its cards (capacity, allocated, free, queues), the cards
   * per model over the cluster with each queue's allocation against its quota, and the pod groups
   * that can never fit.
   */
  private static Map<String, Object> nodes(QueueInsight insight) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("lastSession", insight.lastSession());
    body.put("nodes", insight.nodes());
    body.put("cards", insight.cards());
    body.put("neverFits", insight.neverFits());
    return body;
  }

  /** Whether the scraper asks for OpenMetrics ({@code Accept: application/openmetrics-text}). */
  static boolean wantsOpenMetrics(String accept) {
    return accept != null
        && accept.toLowerCase(java.util.Locale.ROOT).contains("application/openmetrics-text");
  }

  /** The backend's metrics sources and the loop's figures of cards and pending pod groups. */
  private List<MetricsSource> withInsight(List<MetricsSource> sources) {
    List<MetricsSource> all = new java.util.ArrayList<>(sources);
    all.addAll(InsightMetrics.of(backend.insight()));
    return all;
  }

  /** {@code /api/evictions}: the recent evictions, oldest first, each with its rule. */
  private static Map<String, Object> evictions(QueueInsight insight, int max) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("lastSession", insight.lastSession());
    body.put("evictions", insight.evictions(max));
    return body;
  }

  private static int limit(Map<String, String> query, int otherwise) throws AdminException {
    String v = query.get("limit");
    if (v == null) {
      return otherwise;
    }
    try {
      return Math.max(0, Integer.parseInt(v));
    } catch (NumberFormatException e) {
      throw new AdminException(400, "limit: expected a number, got " + v);
    }
  }

  private static Map<String, String> query(String raw) throws AdminException {
    Map<String, String> out = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String part : raw.split("&")) {
      int eq = part.indexOf('=');
      String k = eq < 0 ? part : part.substring(0, eq);
      String v = eq < 0 ? "" : part.substring(eq + 1);
      try {
        out.put(
            URLDecoder.decode(k, StandardCharsets.UTF_8),
            URLDecoder.decode(v, StandardCharsets.UTF_8));
      } catch (IllegalArgumentException e) {
        throw new AdminException(
            400, "query \"" + part + "\": bad percent-encoding (write a literal % as %25)");
      }
    }
    return out;
  }

  private static String index() {
    return String.join(
        "\n",
        List.of(
            "Caldera admin",
            "GET /               the web console in a browser; this index otherwise (and at /api)",
            "GET /healthz        the loop lives",
            "GET /readyz         sessions run, or standby (503 while held or waiting)",
            "GET /api/status     the loop's state: running, standby, waiting, holding, ...",
            "GET /metrics        Prometheus metrics",
            "GET /api/plugins    plugins: bundle, version, state, sessions served",
            "GET /api/conf       the conf in force",
            "GET /api/policies   the policies in force",
            "GET /api/sessions   recent sessions (?limit=N)",
            "GET /api/events     recent events (?limit=N)",
            "GET /api/bundles    every bundle",
            "GET /api/queues     the queue tree: capability, deserved, allocated, pending; cards",
            "GET /api/queues/NAME/pending   the queue's pending pod groups in order, with reasons",
            "GET /api/jobs/NS/NAME          a pod group: place in line, blockers, pods, evictions",
            "GET /api/evictions  recent evictions: victim, preemptor, queues, freed, rule (?limit=N)",
            "GET /api/nodes      nodes and cards per model: capacity, allocated, free, queues; never fits",
            "GET /api/access     whether a token is configured and the request's token is accepted",
            "GET /api/snapshot   the cluster as a scenario file (?dropUnread=true&anonymize=true; needs the token)",
            "POST /api/bundles?name=FILE.jar      install a bundle (body: the jar; needs the token)",
            "DELETE /api/bundles/NAME             uninstall a plugin bundle (needs the token)",
            "POST /api/queues/NAME/close|drain|open  a queue's lifecycle (needs the token)",
            ""));
  }

  /** A response: status, content type, body and headers beyond the content type. */
  record Response(int status, String contentType, byte[] body, Map<String, String> headers) {

    Response(int status, String contentType, byte[] body) {
      this(status, contentType, body, Map.of());
    }

    static Response json(int status, Object value) {
      try {
        return new Response(status, "application/json", JSON.writeValueAsBytes(value));
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }

    static Response text(int status, String text) {
      return new Response(
          status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }
  }
}
