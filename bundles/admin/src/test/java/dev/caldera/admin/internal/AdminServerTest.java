package dev.caldera.admin.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.caldera.api.host.MetricsSource;
import dev.caldera.framework.loop.Health;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class AdminServerTest {

  private final FakeBackend backend = new FakeBackend();
  private final HttpClient http = HttpClient.newHttpClient();
  private AdminServer server;

  private void start(String token) throws IOException {
    server = new AdminServer(new InetSocketAddress("127.0.0.1", 0), token, backend);
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpRequest.Builder at(String path) {
    return HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + server.address().getPort() + path));
  }

  static byte[] bundleJar(String bsn) throws IOException {
    Manifest m = new Manifest();
    m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    m.getMainAttributes().putValue("Bundle-ManifestVersion", "2");
    m.getMainAttributes().putValue("Bundle-SymbolicName", bsn);
    m.getMainAttributes().putValue("Bundle-Version", "1.2.3");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JarOutputStream jar = new JarOutputStream(out, m)) {
      jar.flush();
    }
    return out.toByteArray();
  }

  @Test
  void snapshot_needsTheToken_andCarriesTheConfAndPoliciesInForce() throws Exception {
    start("t0ken");
    List<dev.caldera.framework.loop.ClusterExport.Request> requests = new ArrayList<>();
    backend.exporter =
        r -> {
          requests.add(r);
          return "name: " + r.name() + "\n";
        };

    assertThat(send(at("/api/snapshot")).statusCode()).isEqualTo(401);
    assertThat(requests).isEmpty();

    HttpResponse<String> ok =
        send(at("/api/snapshot?dropUnread=true").header("Authorization", "Bearer t0ken"));
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(ok.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/yaml"));
    assertThat(ok.body()).startsWith("name: snapshot-");
    assertThat(requests).hasSize(1);
    assertThat(requests.get(0).conf()).isEqualTo("actions: allocate\n");
    assertThat(requests.get(0).policies()).containsEntry("tidal.policy", "policy tidal\n");
    assertThat(requests.get(0).dropUnread()).isTrue();
    assertThat(requests.get(0).json()).isFalse();

    HttpResponse<String> json =
        send(at("/api/snapshot?format=json").header("Authorization", "Bearer t0ken"));
    assertThat(json.statusCode()).isEqualTo(200);
    assertThat(json.headers().firstValue("Content-Type"))
        .hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
    assertThat(requests.get(1).json()).isTrue();

    HttpResponse<String> xml =
        send(at("/api/snapshot?format=xml").header("Authorization", "Bearer t0ken"));
    assertThat(xml.statusCode()).isEqualTo(400);
    assertThat(xml.body()).contains("format: expected yaml or json, got \\\"xml\\\"");
    assertThat(requests).hasSize(2);
  }

  @Test
  void snapshot_withoutAnExportingSource_is404_andBeforeTheListsAre503() throws Exception {
    start("t0ken");
    HttpResponse<String> none = send(at("/api/snapshot").header("Authorization", "Bearer t0ken"));
    assertThat(none.statusCode()).isEqualTo(404);
    assertThat(none.body()).contains("--kubeconfig");

    backend.exporter =
        r -> {
          throw new IllegalStateException("the informers of pods have not listed yet");
        };
    HttpResponse<String> early = send(at("/api/snapshot").header("Authorization", "Bearer t0ken"));
    assertThat(early.statusCode()).isEqualTo(503);
    assertThat(early.body()).contains("no snapshot yet: the informers of pods have not listed yet");
  }

  @Test
  void queuesPendingAndJobs_answerWithTheLoopsFigures() throws Exception {
    start(null);
    HttpResponse<String> queues = send(at("/api/queues"));
    assertThat(queues.statusCode()).isEqualTo(200);
    assertThat(queues.body()).contains("\"name\" : \"training\"", "\"realCapability\"");

    HttpResponse<String> pending = send(at("/api/queues/training/pending"));
    assertThat(pending.statusCode()).isEqualTo(200);
    assertThat(pending.body())
        .contains("ml/train-8", "\"position\" : 2", "\"stage\" : \"QUEUE_CAPABILITY\"")
        .contains("nvidia.com/gpu requested 8, allocated 60 of realCapability 64");
    assertThat(send(at("/api/queues/nope/pending")).statusCode()).isEqualTo(404);

    HttpResponse<String> job = send(at("/api/jobs/ml/train-7"));
    assertThat(job.statusCode()).isEqualTo(200);
    assertThat(job.body()).contains("\"ahead\" : [ \"ml/train-8\" ]", "train-7-0", "history");
    assertThat(job.body())
        .as("the capacity held for it")
        .contains("\"holding\" : [ \"holding 2 NVIDIA-H100 on node-3 for ml/train-7");
    assertThat(send(at("/api/jobs/ml/nope")).statusCode()).isEqualTo(404);

    backend.loopRunning = false;
    assertThat(send(at("/api/queues")).statusCode()).isEqualTo(503);
  }

  @Test
  void healthAndReadiness_followTheLoop() throws Exception {
    start(null);

    assertThat(send(at("/healthz")).statusCode()).isEqualTo(200);
    assertThat(send(at("/readyz")).statusCode()).isEqualTo(200);

    backend.holding = true;
    HttpResponse<String> ready = send(at("/readyz"));
    assertThat(ready.statusCode()).isEqualTo(503);
    assertThat(ready.body()).contains("holding", "capacity");
    assertThat(send(at("/healthz")).statusCode()).isEqualTo(200);

    backend.loopRunning = false;
    assertThat(send(at("/healthz")).statusCode()).isEqualTo(503);
  }

  @Test
  void metrics_arePrometheusText() throws Exception {
    start(null);

    HttpResponse<String> r = send(at("/metrics"));

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("text/plain; version=0.0.4"));
    assertThat(r.body()).contains("caldera_sessions_total 3.0\n", "caldera_binds_total 5.0\n");
  }

  @Test
  void metrics_addTheFamiliesOfEveryMetricsSource_andSurviveOneThatFails() throws Exception {
    backend.metricsSources.add(
        () ->
            List.of(
                MetricsSource.Family.of("caldera_leader", "gauge", "Leading.", 0),
                new MetricsSource.Family(
                    "caldera_kube_binds_total",
                    "counter",
                    "Binds by outcome.",
                    List.of(
                        new MetricsSource.Sample(List.of("result", "accepted"), 7),
                        new MetricsSource.Sample(List.of("result", "refused"), 1)))));
    backend.metricsSources.add(
        () -> {
          throw new IllegalStateException("broken source");
        });
    start(null);

    String body = send(at("/metrics")).body();

    assertThat(body)
        .contains(
            "# TYPE caldera_leader gauge\ncaldera_leader 0.0\n",
            "caldera_kube_binds_total{result=\"accepted\"} 7.0\n",
            "caldera_kube_binds_total{result=\"refused\"} 1.0\n",
            "caldera_sessions_total 3.0\n")
        .contains("failed: broken source");
  }

  @Test
  void policies_showTheFilesInForce_andTheAuditDisagreementsPerPolicy() throws Exception {
    backend.metricsSources.add(
        () ->
            List.of(
                new MetricsSource.Family(
                    AdminServer.AUDIT_DISAGREEMENTS,
                    "counter",
                    "Audit disagreements.",
                    List.of(
                        new MetricsSource.Sample(List.of("policy", "wide"), 3),
                        new MetricsSource.Sample(List.of("policy", "narrow"), 0)))));
    backend.metricsSources.add(
        () -> {
          throw new IllegalStateException("broken source");
        });
    start(null);

    JsonNode body = new ObjectMapper().readTree(send(at("/api/policies")).body());

    assertThat(body.path("files").fieldNames()).toIterable().containsExactly("tidal.policy");
    assertThat(body.path("auditDisagreements").toString()).isEqualTo("{\"narrow\":0,\"wide\":3}");
    assertThat(body.path("recentDisagreements").get(0).path("message").asText())
        .contains("by strict.policy:19 (otherwise deny)", "by tidal.policy:18");
    assertThat(body.path("recentDisagreements").get(0).path("sessions").asInt()).isEqualTo(2);
  }

  @Test
  void metrics_givePendingPodGroupsPerStage_andOpenMetricsWhenAsked() throws Exception {
    start(null);

    HttpResponse<String> text = send(at("/metrics"));
    assertThat(text.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
    assertThat(text.body())
        .contains("caldera_pending_podgroups{queue=\"training\",stage=\"QUEUE_CAPABILITY\"} 2.0\n");

    HttpResponse<String> open =
        send(
            at("/metrics")
                .header(
                    "Accept",
                    "application/openmetrics-text; version=1.0.0; charset=utf-8,text/plain;q=0.5"));
    assertThat(open.headers().firstValue("Content-Type").orElse(""))
        .startsWith("application/openmetrics-text");
    assertThat(open.body())
        .contains("caldera_pending_podgroups{queue=\"training\",stage=\"QUEUE_CAPABILITY\"} 2.0\n")
        .endsWith("# EOF\n");
  }

  @Test
  void metrics_givePendingTimePerQueue_asAGaugeHistogramOfTheWaitingPodGroups() throws Exception {
    start(null);

    // The fake's two waiting pod groups of training have waited 0.3 s and 75 s.
    assertThat(send(at("/metrics")).body())
        .contains(
            "# TYPE caldera_queue_pending_seconds histogram\n",
            "caldera_queue_pending_seconds_bucket{queue=\"training\",le=\"0.25\"} 0\n",
            "caldera_queue_pending_seconds_bucket{queue=\"training\",le=\"0.5\"} 1\n",
            "caldera_queue_pending_seconds_bucket{queue=\"training\",le=\"60.0\"} 1\n",
            "caldera_queue_pending_seconds_bucket{queue=\"training\",le=\"120.0\"} 2\n",
            "caldera_queue_pending_seconds_bucket{queue=\"training\",le=\"+Inf\"} 2\n",
            "caldera_queue_pending_seconds_gcount{queue=\"training\"} 2\n",
            "caldera_queue_pending_seconds_gsum{queue=\"training\"} 75.3\n");
    assertThat(
            send(at("/metrics").header("Accept", "application/openmetrics-text; version=1.0.0"))
                .body())
        .contains(
            "# TYPE caldera_queue_pending_seconds gaugehistogram\n",
            "caldera_queue_pending_seconds_gcount{queue=\"training\"} 2\n");
  }

  @Test
  void queues_carryTheCardInventoryPerModel() throws Exception {
    start(null);

    JsonNode body = new ObjectMapper().readTree(send(at("/api/queues")).body());

    JsonNode a100 = body.path("cards").get(0);
    assertThat(a100.path("card").asText()).isEqualTo("NVIDIA-A100");
    assertThat(a100.path("inventory").asDouble()).isEqualTo(8);
    assertThat(a100.path("queues").get(0).path("quota").asDouble()).isEqualTo(6);
  }

  @Test
  void evictions_listTheRecentOnesWithTheirRule() throws Exception {
    start(null);

    JsonNode body = new ObjectMapper().readTree(send(at("/api/evictions")).body());

    JsonNode e = body.path("evictions").get(0);
    assertThat(e.path("pod").asText()).isEqualTo("ml/train-6-0");
    assertThat(e.path("forQueue").asText()).isEqualTo("inference");
    assertThat(e.path("freed").path("nvidia.com/gpu").asText()).isEqualTo("4");
    assertThat(e.path("rule").asText()).isEqualTo("tidal.policy:18 (any may reclaim training)");
    assertThat(
            new ObjectMapper()
                .readTree(send(at("/api/evictions?limit=0")).body())
                .path("evictions")
                .size())
        .isZero();
  }

  @Test
  void standby_isReady_andSaysWhoLeads() throws Exception {
    backend.health =
        new Health(
            "standby",
            List.of("the leader is replica-b (lease caldera-system/caldera-scheduler)"),
            List.of(),
            0,
            null);
    start(null);

    HttpResponse<String> ready = send(at("/readyz"));
    assertThat(ready.statusCode()).isEqualTo(200);
    assertThat(ready.body()).contains("\"state\" : \"standby\"", "the leader is replica-b");
    assertThat(send(at("/api/status")).body()).contains("\"state\" : \"standby\"");

    backend.health =
        new Health("waiting", List.of("cannot renew the lease: HTTP 403"), List.of(), 0, null);
    HttpResponse<String> waiting = send(at("/readyz"));
    assertThat(waiting.statusCode()).isEqualTo(503);
    assertThat(waiting.body()).contains("HTTP 403");
  }

  @Test
  void api_listsPluginsConfSessionsAndBundlesAsJson() throws Exception {
    start(null);

    assertThat(send(at("/api/plugins")).body())
        .contains("\"name\" : \"gang\"", "\"sessionsServed\" : 3", "\"state\" : \"MISSING\"");
    assertThat(send(at("/api/conf")).body())
        .contains("\"path\" : \"/conf/scheduler.conf\"", "\"lastError\" : \"bad line\"");
    assertThat(send(at("/api/sessions?limit=1")).body())
        .contains("\"pod\" : \"ns/p1\"", "caldera-plugin-gang 1.0.0");
    assertThat(send(at("/api/bundles")).body()).contains("file:/deploy/gang.jar");
    assertThat(send(at("/api/policies")).body()).contains("tidal.policy");
    assertThat(send(at("/api/nothing")).statusCode()).isEqualTo(404);
    assertThat(send(at("/api/sessions?limit=x")).statusCode()).isEqualTo(400);
  }

  @Test
  void bundleChanges_areRefusedWithoutAConfiguredToken() throws Exception {
    start(null);

    HttpResponse<String> r =
        send(at("/api/bundles").POST(HttpRequest.BodyPublishers.ofByteArray(bundleJar("b"))));

    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(r.body()).contains("--admin-token");
    assertThat(send(at("/api/bundles/caldera-plugin-gang").DELETE()).statusCode()).isEqualTo(401);
    assertThat(backend.installed).isEmpty();
    assertThat(backend.uninstalled).isEmpty();
  }

  @Test
  void queueCommands_needTheToken_andAnswerWithTheStateAsRequested() throws Exception {
    start("s3cret");
    List<String> asked = new ArrayList<>();
    backend.queues =
        (q, c) -> {
          asked.add(c.word() + " " + q);
          return switch (q) {
            case "research" ->
                new dev.caldera.framework.loop.QueueLifecycle.Outcome(
                    dev.caldera.framework.loop.QueueLifecycle.Result.DONE,
                    c == dev.caldera.framework.loop.QueueLifecycle.Command.OPEN
                        ? "Open"
                        : "Closing",
                    "queue research is Closing");
            case "volcanos" ->
                new dev.caldera.framework.loop.QueueLifecycle.Outcome(
                    dev.caldera.framework.loop.QueueLifecycle.Result.KEPT_BY_VOLCANO,
                    "Open",
                    dev.caldera.framework.loop.QueueLifecycle.volcanoWay("volcanos", c));
            default ->
                new dev.caldera.framework.loop.QueueLifecycle.Outcome(
                    dev.caldera.framework.loop.QueueLifecycle.Result.NOT_FOUND,
                    "",
                    "queue " + q + " does not exist");
          };
        };
    HttpRequest.BodyPublisher none = HttpRequest.BodyPublishers.noBody();

    HttpResponse<String> anonymous = send(at("/api/queues/research/close").POST(none));
    HttpResponse<String> wrong =
        send(at("/api/queues/research/close").header("Authorization", "Bearer no").POST(none));
    HttpResponse<String> drained =
        send(at("/api/queues/research/drain").header("Authorization", "Bearer s3cret").POST(none));
    HttpResponse<String> opened =
        send(at("/api/queues/research/open").header("Authorization", "Bearer s3cret").POST(none));
    HttpResponse<String> volcano =
        send(at("/api/queues/volcanos/close").header("Authorization", "Bearer s3cret").POST(none));
    HttpResponse<String> missing =
        send(at("/api/queues/nope/open").header("Authorization", "Bearer s3cret").POST(none));
    HttpResponse<String> unknownCommand =
        send(at("/api/queues/research/shut").header("Authorization", "Bearer s3cret").POST(none));

    assertThat(anonymous.statusCode()).isEqualTo(401);
    assertThat(anonymous.body()).contains("POST /api/queues/NAME/close needs the header");
    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(drained.statusCode()).isEqualTo(200);
    assertThat(drained.body())
        .contains("\"queue\" : \"research\"", "\"command\" : \"drain\"", "\"state\" : \"Closing\"");
    assertThat(opened.body()).contains("\"state\" : \"Open\"");
    assertThat(volcano.statusCode()).isEqualTo(409);
    assertThat(volcano.body()).contains("vcctl queue operate --name volcanos --action close");
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(unknownCommand.statusCode()).isEqualTo(404);
    assertThat(asked)
        .containsExactly("drain research", "open research", "close volcanos", "open nope");
    assertThat(backend.reported)
        .extracting(e -> e.reason())
        .containsExactly("QueueDrain", "QueueOpen");
  }

  @Test
  void queueCommands_withoutASourceThatKeepsQueues_are503() throws Exception {
    start("s3cret");

    HttpResponse<String> r =
        send(
            at("/api/queues/research/close")
                .header("Authorization", "Bearer s3cret")
                .POST(HttpRequest.BodyPublishers.noBody()));

    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(r.body()).contains("no cluster source that can close, drain or open queues");
  }

  @Test
  void bundleChanges_needTheRightBearerToken() throws Exception {
    start("s3cret");
    byte[] jar = bundleJar("b");

    assertThat(
            send(at("/api/bundles").POST(HttpRequest.BodyPublishers.ofByteArray(jar))).statusCode())
        .isEqualTo(401);
    assertThat(
            send(at("/api/bundles")
                    .header("Authorization", "Bearer wrong")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(jar)))
                .statusCode())
        .isEqualTo(401);
    HttpResponse<String> ok =
        send(
            at("/api/bundles?name=b.jar")
                .header("Authorization", "Bearer s3cret")
                .POST(HttpRequest.BodyPublishers.ofByteArray(jar)));
    HttpResponse<String> gone =
        send(
            at("/api/bundles/caldera-plugin-gang")
                .header("Authorization", "Bearer s3cret")
                .DELETE());
    HttpResponse<String> unknown =
        send(at("/api/bundles/nope").header("Authorization", "Bearer s3cret").DELETE());

    assertThat(ok.statusCode()).isEqualTo(201);
    assertThat(backend.installed).containsExactly("b.jar");
    assertThat(gone.statusCode()).isEqualTo(200);
    assertThat(backend.uninstalled).containsExactly("caldera-plugin-gang");
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(backend.reported)
        .extracting(e -> e.reason())
        .containsExactly("BundleInstalled", "BundleUninstalled");
  }

  @Test
  void install_ofSomethingThatIsNotABundleIsABadRequest() throws Exception {
    start("t");

    HttpResponse<String> r =
        send(
            at("/api/bundles")
                .header("Authorization", "Bearer t")
                .POST(HttpRequest.BodyPublishers.ofString("hello")));

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("not a jar");
    assertThat(backend.installed).isEmpty();
  }

  /** A connection that sent the start of a request and holds, as a slow or hostile client. */
  private Socket idleConnection() throws IOException {
    Socket s = new Socket("127.0.0.1", server.address().getPort());
    s.getOutputStream()
        .write("GET /healthz HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
    s.getOutputStream().flush();
    return s;
  }

  @Test
  void healthz_answersWithinASecondWhile50IdleConnectionsAreHeld() throws Exception {
    start(null);
    List<Socket> idle = new ArrayList<>();
    try {
      for (int i = 0; i < 50; i++) {
        idle.add(idleConnection());
      }
      Thread.sleep(200); // let the server hand each to a handler thread

      for (String path : List.of("/healthz", "/readyz", "/healthz")) {
        long start = System.nanoTime();
        HttpResponse<String> r = send(at(path).timeout(Duration.ofSeconds(1)));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(millis).as("%s answered in %d ms", path, millis).isLessThan(1000);
      }
    } finally {
      for (Socket s : idle) {
        s.close();
      }
    }
  }

  @Test
  void anIdleConnectionIsClosedAfterTheRequestTimeout() throws Exception {
    start(null);
    try (Socket s = idleConnection()) {
      s.setSoTimeout(30_000);
      long start = System.nanoTime();

      int read = s.getInputStream().read();

      long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
      assertThat(read).as("the server closes the connection").isEqualTo(-1);
      assertThat(seconds).isLessThan(25);
    }
  }

  @Test
  void healthz_failsWithTheReasonWhenTheLoopStopsCycling() throws Exception {
    start(null);
    backend.stalled = true;

    HttpResponse<String> health = send(at("/healthz"));

    assertThat(health.statusCode()).isEqualTo(503);
    assertThat(health.body()).contains("has not finished a cycle since", "lastCycle");
    assertThat(send(at("/readyz")).statusCode()).isEqualTo(503);
  }

  @Test
  void install_aNameThatIsNotAPlainJarNameIsABadRequestNamingTheField() throws Exception {
    start("t");
    byte[] jar = bundleJar("b");

    for (String name : List.of("a%0Ab.jar", "a%00.jar", "x".repeat(300) + ".jar", "..%2Fx.jar")) {
      HttpResponse<String> r =
          send(
              at("/api/bundles?name=" + name)
                  .header("Authorization", "Bearer t")
                  .POST(HttpRequest.BodyPublishers.ofByteArray(jar)));

      assertThat(r.statusCode()).as(name).isEqualTo(400);
      assertThat(r.body())
          .as(name)
          .contains("name: expected a file name")
          .doesNotContain("Exception");
    }
    assertThat(backend.installed).isEmpty();
  }

  /**
   * The web console as the server serves it: the page for browsers, the text index for other
   * clients, its script and style sheet, and the access endpoint its write controls follow. Whether
   * it draws the right things is {@code ConsoleBrowserTest} (itests), in a real browser.
   */
  @Nested
  class Console {

    private static final String BROWSER_ACCEPT =
        "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

    private HttpResponse<String> get(String path, String... headers) throws Exception {
      HttpRequest.Builder b = at(path);
      if (headers.length > 0) {
        b.headers(headers);
      }
      return send(b);
    }

    private static String resource(String name) throws IOException {
      try (InputStream in =
          AdminServerTest.class.getResourceAsStream("/dev/caldera/admin/console/" + name)) {
        assertThat(in).as(name).isNotNull();
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
    }

    @Test
    void root_isTheConsoleForABrowser_andTheTextIndexForOtherClients() throws Exception {
      start(null);
      HttpResponse<String> page = get("/", "Accept", BROWSER_ACCEPT);
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
      assertThat(page.headers().firstValue("Content-Security-Policy"))
          .hasValueSatisfying(csp -> assertThat(csp).contains("script-src 'self'"));
      assertThat(page.body()).contains("<title>Caldera console</title>", "/console/console.js");

      HttpResponse<String> curl = get("/", "Accept", "*/*");
      assertThat(curl.headers().firstValue("Content-Type"))
          .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
      assertThat(curl.body()).startsWith("Caldera admin").contains("GET /api/queues");
      assertThat(get("/").body()).startsWith("Caldera admin");

      HttpResponse<String> index = get("/api", "Accept", BROWSER_ACCEPT);
      assertThat(index.headers().firstValue("Content-Type"))
          .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
      assertThat(index.body()).startsWith("Caldera admin");
    }

    @Test
    void scriptAndStyleSheet_areServed_andNothingElseUnderConsole() throws Exception {
      start(null);
      HttpResponse<String> js = get("/console/console.js");
      assertThat(js.statusCode()).isEqualTo(200);
      assertThat(js.headers().firstValue("Content-Type"))
          .hasValueSatisfying(t -> assertThat(t).startsWith("text/javascript"));
      assertThat(js.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
      assertThat(js.body()).isEqualTo(resource("console.js"));
      HttpResponse<String> css = get("/console/console.css");
      assertThat(css.headers().firstValue("Content-Type"))
          .hasValueSatisfying(t -> assertThat(t).startsWith("text/css"));

      assertThat(get("/console/index.html").statusCode()).isEqualTo(404);
      assertThat(get("/console/AdminServer.class").statusCode()).isEqualTo(404);
      assertThat(get("/console/%2e%2e/internal/AdminServer.class").statusCode()).isEqualTo(404);
    }

    @Test
    void access_saysWhetherATokenIsConfigured_andWhetherTheRequestCarriesIt() throws Exception {
      start(null);
      assertThat(get("/api/access").body())
          .contains("\"tokenConfigured\" : false", "\"authorized\" : false");
      assertThat(get("/api/access", "Authorization", "Bearer anything").body())
          .contains("\"authorized\" : false");
      server.close();

      start("t0ken");
      assertThat(get("/api/access").body())
          .contains("\"tokenConfigured\" : true", "\"authorized\" : false");
      assertThat(get("/api/access", "Authorization", "Bearer wrong").body())
          .contains("\"authorized\" : false");
      assertThat(get("/api/access", "Authorization", "Bearer t0ken").body())
          .contains("\"authorized\" : true");
    }

    @Test
    void everyApiPathTheScriptReads_isAnswered() throws Exception {
      start(null);
      Matcher m = Pattern.compile("get\\('(/api/[^']*)'\\)").matcher(resource("console.js"));
      List<String> paths = new ArrayList<>();
      while (m.find()) {
        paths.add(m.group(1));
      }
      assertThat(paths).contains("/api/status", "/api/queues", "/api/plugins", "/api/access");
      for (String path : paths) {
        assertThat(get(path).statusCode()).as(path).isEqualTo(200);
      }
      // Built from a queue's or a pod group's name.
      assertThat(get("/api/queues/training/pending").statusCode()).isEqualTo(200);
      assertThat(get("/api/jobs/ml/train-7").statusCode()).isEqualTo(200);
    }

    @Test
    void theJobView_listsTheCapacityHeldForThePodGroup() throws Exception {
      assertThat(resource("console.js"))
          .contains("const holding = (j.holding || []).map((h) => el('li', { text: h }));")
          .contains("[el('ul', { class: 'job-holding' }, ...holding)]");
    }

    @Test
    void theQueueButtons_postCloseDrainOpen_onlyWithAnAcceptedToken() throws Exception {
      String js = resource("console.js");
      assertThat(js)
          .contains("request('POST', '/api/queues/' + encodeURIComponent(q.name) + '/' + c, null)")
          .contains("access.authorized && q.name !== 'root' ? el('div', {}, ...queueButtons(q))")
          .contains("['close', 'drain']", "['drain', 'open']");
    }

    @Test
    void theConsole_putsNoDataInMarkup_andLoadsNothingFromElsewhere() throws Exception {
      String js = resource("console.js");
      assertThat(js)
          .doesNotContain("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(")
          .doesNotContain("http://", "https://");
      for (String name : List.of("index.html", "console.css")) {
        assertThat(resource(name)).as(name).doesNotContain("http://", "https://");
      }
      String page = resource("index.html");
      assertThat(page).doesNotContain("<script>", "style=");
      assertThat(Pattern.compile("\\son[a-z]+\\s*=").matcher(page).find())
          .as("an inline event handler in index.html")
          .isFalse();
    }
  }
}
