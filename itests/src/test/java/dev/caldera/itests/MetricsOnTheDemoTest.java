package dev.caldera.itests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /metrics} of {@code caldera run} on the shipped demo (the embedded cluster seeded from
 * {@code conf/demo}, as README's first command runs it), read by the Prometheus Python client's
 * parsers, the text format's and the OpenMetrics reference parser: both parse, with the card,
 * latency, pending-time and blocker families; and every panel of {@code
 * runtime/deploy/grafana-dashboard.json} selects series that the demo's {@code /metrics} has. A
 * panel that only the Kubernetes backend can fill (leader election, the API server's answers) says
 * so in its description and queries only the kube bundle's families.
 *
 * <p>Skipped, saying what is missing, where no Python 3 with {@code prometheus_client} is found
 * (Debian's {@code python3-prometheus-client}; {@code .ci/run} installs it). {@code CALDERA_PYTHON}
 * names another interpreter.
 */
class MetricsOnTheDemoTest {

  static final Path DASHBOARD = Path.of("../runtime/deploy/grafana-dashboard.json");

  /** Labels Prometheus adds from the target (the ServiceMonitor's), not in {@code /metrics}. */
  private static final Set<String> TARGET_LABELS = Set.of("namespace", "pod", "job", "instance");

  static final String REAL_CLUSTER_ONLY = "Real cluster only";

  private static final Pattern SELECTOR =
      Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\{([^}]*)\\}");
  private static final Pattern MATCHER =
      Pattern.compile(
          "\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!~|!=|=)\\s*\"((?:[^\"\\\\]|\\\\.)*)\"\\s*,?");
  private static final Pattern METRIC_NAME = Pattern.compile("\\b(caldera|jvm|process)_[a-z_]+");

  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

  @TempDir Path tmp;

  private final HttpClient http = HttpClient.newHttpClient();
  private RunningCaldera caldera;

  @AfterEach
  void stop() {
    if (caldera != null) {
      caldera.close();
    }
  }

  @Test
  void demoMetrics_parseInBothFormats_andFillEveryDashboardPanel() throws Exception {
    String python = python();
    Path home = RunningCaldera.copyOfDistribution(tmp);
    caldera =
        RunningCaldera.start(
            home, "--admin-address", "127.0.0.1:0", "--status-interval", "1s", "--duration", "5m");
    String url = caldera.awaitAdminUrl();
    // A status line a second: the families below fill as the demo's workload arrives, is bound
    // and queues up (one of its pod groups can never fit, so something always waits).
    String text = "";
    for (int i = 0; i < 90; i++) {
      caldera.awaitLine("status: sessions");
      text = scrape(url, null).body();
      if (text.contains("caldera_pod_scheduling_latency_seconds_bucket{")
          && text.contains("caldera_queue_pending_seconds_bucket{")
          && text.contains("caldera_queue_cards_allocated{")
          && text.contains("caldera_pending_podgroups{")) {
        break;
      }
    }

    Map<String, JsonNode> families = parse(python, text, "text");
    assertThat(families)
        .containsKeys(
            "caldera_cards_inventory",
            "caldera_cards_allocated",
            "caldera_queue_cards_allocated",
            "caldera_queue_cards_quota",
            "caldera_pod_scheduling_latency_seconds",
            "caldera_queue_pending_seconds",
            "caldera_pending_podgroups",
            "caldera_sessions",
            "jvm_memory_used_bytes");
    assertThat(families.get("caldera_pod_scheduling_latency_seconds").path("type").asText())
        .isEqualTo("histogram");
    assertThat(samples(families.get("caldera_queue_pending_seconds")))
        .anySatisfy(
            s -> {
              assertThat(s.path("name").asText()).isEqualTo("caldera_queue_pending_seconds_bucket");
              assertThat(s.path("labels").path("queue").asText()).isEqualTo("training");
            });

    HttpResponse<String> open = scrape(url, "application/openmetrics-text; version=1.0.0");
    assertThat(open.headers().firstValue("Content-Type").orElse(""))
        .startsWith("application/openmetrics-text");
    Map<String, JsonNode> openFamilies = parse(python, open.body(), "openmetrics");
    assertThat(openFamilies)
        .containsKeys(
            "caldera_cards_inventory",
            "caldera_queue_cards_quota",
            "caldera_pod_scheduling_latency_seconds",
            "caldera_queue_pending_seconds",
            "caldera_pending_podgroups",
            "caldera_sessions");
    assertThat(openFamilies.get("caldera_queue_pending_seconds").path("type").asText())
        .isEqualTo("gaugehistogram");

    List<JsonNode> series = new ArrayList<>();
    families.values().forEach(f -> series.addAll(samples(f)));
    JsonNode dashboard = JSON.readTree(DASHBOARD.toFile());
    Map<String, List<String>> empty = new TreeMap<>();
    for (JsonNode panel : dashboard.path("panels")) {
      String title = panel.path("title").asText();
      List<String> expressions = new ArrayList<>();
      panel.path("targets").forEach(t -> expressions.add(t.path("expr").asText()));
      if (panel.path("description").asText().startsWith(REAL_CLUSTER_ONLY)) {
        assertThat(metricNames(expressions))
            .as("metrics of the real-cluster panel " + title)
            .isNotEmpty()
            .allSatisfy(n -> assertThat(n).matches("caldera_(kube_|leader).*"));
        continue;
      }
      List<String> selectors = new ArrayList<>();
      boolean data = false;
      for (String expr : expressions) {
        Matcher m = SELECTOR.matcher(expr);
        while (m.find()) {
          selectors.add(m.group());
          data |= series.stream().anyMatch(s -> selects(m.group(1), m.group(2), s));
        }
      }
      assertThat(selectors).as("selectors of panel " + title).isNotEmpty();
      // Every metric a panel names is written with a selector (so its matchers are checked).
      assertThat(metricNames(expressions))
          .as("metrics of panel " + title)
          .allSatisfy(
              n -> assertThat(selectors).anySatisfy(s -> assertThat(s).startsWith(n + "{")));
      if (!data) {
        empty.put(title, selectors);
      }
    }
    assertThat(empty).as("panels without data on the demo (selectors)").isEmpty();
  }

  /** Whether the sample {@code s} is one the selector {@code name{matchers}} selects. */
  static boolean selects(String name, String matchers, JsonNode s) {
    if (!s.path("name").asText().equals(name)) {
      return false;
    }
    Matcher m = MATCHER.matcher(matchers);
    int at = 0;
    while (at < matchers.length() && m.find(at) && m.start() == at) {
      at = m.end();
      String label = m.group(1);
      if (TARGET_LABELS.contains(label)) {
        continue;
      }
      String value = s.path("labels").path(label).asText("");
      String wanted = m.group(3).replace("\\\"", "\"").replace("\\\\", "\\");
      boolean ok =
          switch (m.group(2)) {
            case "=" -> value.equals(wanted);
            case "!=" -> !value.equals(wanted);
            case "=~" -> value.matches(wanted);
            default -> !value.matches(wanted);
          };
      if (!ok) {
        return false;
      }
    }
    assertThat(matchers.substring(at).isBlank())
        .as("matchers %s read to the end", matchers)
        .isTrue();
    return true;
  }

  private static Set<String> metricNames(List<String> expressions) {
    Set<String> names = new TreeSet<>();
    for (String expr : expressions) {
      Matcher m = METRIC_NAME.matcher(expr);
      while (m.find()) {
        names.add(m.group());
      }
    }
    return names;
  }

  private static List<JsonNode> samples(JsonNode family) {
    List<JsonNode> out = new ArrayList<>();
    family.path("samples").forEach(out::add);
    return out;
  }

  private HttpResponse<String> scrape(String url, String accept)
      throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url + "metrics"));
    if (accept != null) {
      request.header("Accept", accept);
    }
    HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    return r;
  }

  /** The families of {@code exposition} by name, as the Python client's parser reads them. */
  private Map<String, JsonNode> parse(String python, String exposition, String format)
      throws IOException, InterruptedException {
    Path script = tmp.resolve("prometheus-parse.py");
    if (!Files.exists(script)) {
      try (InputStream in = getClass().getResourceAsStream("/prometheus-parse.py")) {
        assertThat(in).as("prometheus-parse.py on the test class path").isNotNull();
        Files.copy(in, script);
      }
    }
    Process p = new ProcessBuilder(python, script.toString(), format).start();
    CompletableFuture<byte[]> errors =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return p.getErrorStream().readAllBytes();
              } catch (IOException e) {
                return e.toString().getBytes(StandardCharsets.UTF_8);
              }
            });
    CompletableFuture<Void> feed =
        CompletableFuture.runAsync(
            () -> {
              try (var in = p.getOutputStream()) {
                in.write(exposition.getBytes(StandardCharsets.UTF_8));
              } catch (IOException e) {
                // the parser exited early: its error says why
              }
            });
    byte[] out = p.getInputStream().readAllBytes();
    feed.join();
    String err = new String(errors.join(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(format + " parser: " + err).isZero();
    Map<String, JsonNode> byName = new TreeMap<>();
    JSON.readTree(out).forEach(f -> byName.put(f.path("name").asText(), f));
    return byName;
  }

  /** A Python 3 that has {@code prometheus_client}, or the test is skipped saying so. */
  private static String python() throws IOException, InterruptedException {
    List<String> candidates = new ArrayList<>();
    Optional.ofNullable(System.getenv("CALDERA_PYTHON"))
        .filter(s -> !s.isBlank())
        .ifPresent(candidates::add);
    candidates.addAll(List.of("/usr/bin/python3", "python3"));
    for (String candidate : candidates) {
      try {
        Process p =
            new ProcessBuilder(candidate, "-c", "import prometheus_client")
                .redirectErrorStream(true)
                .start();
        p.getInputStream().readAllBytes();
        if (p.waitFor() == 0) {
          return candidate;
        }
      } catch (IOException e) {
        // not there: try the next
      }
    }
    String message =
        "MetricsOnTheDemoTest skipped: no Python 3 with prometheus_client (apt-get install"
            + " python3-prometheus-client, or set CALDERA_PYTHON)";
    System.err.println(message);
    assumeTrue(false, message);
    return null;
  }
}
