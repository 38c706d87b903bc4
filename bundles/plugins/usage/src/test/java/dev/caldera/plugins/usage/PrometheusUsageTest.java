package dev.caldera.plugins.usage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.ClusterInfo;
import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.extension.Status;
import dev.caldera.api.extension.Status.Code;
import dev.caldera.api.model.NodeMetrics;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.PrometheusStub;
import dev.caldera.testkit.RecordedEvent;
import dev.caldera.testkit.RecordingExtensions;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The usage plugin reading node usage from a Prometheus server (a local stub). */
class PrometheusUsageTest {

  private final PrometheusStub prometheus = new PrometheusStub();
  private final FakeSession session = new FakeSession();
  private final Instant now = session.now();
  private final UsagePluginFactory factory = new UsagePluginFactory();

  PrometheusUsageTest() throws IOException {}

  @AfterEach
  void stop() {
    prometheus.close();
  }

  private FakeNode node(String name) {
    return session.addNode(name).allocatable("pods", "110", "cpu", "4", "memory", "8Gi");
  }

  private RecordingExtensions open(Map<String, Object> arguments) {
    // The cluster's own metrics say the opposite of Prometheus: they must not be used.
    session.cluster(
        new ClusterInfo(
            null,
            null,
            null,
            null,
            Map.of("busy", new NodeMetrics(10, 10, now), "idle", new NodeMetrics(99, 99, now))));
    return RecordingExtensions.open(
        factory.create(new PluginArguments("usage", arguments, false)), session);
  }

  private Map<String, Object> prometheusArguments(String timeout) {
    return Map.of(
        "usage.metrics.type",
        "prometheus",
        "usage.metrics.address",
        prometheus.address().toString(),
        "usage.metrics.timeout",
        timeout,
        "thresholds",
        Map.of("cpu", 80, "mem", 80));
  }

  @Test
  void predicate_refusesTheNodePrometheusReportsOverloaded() {
    FakeNode busy = node("busy");
    FakeNode idle = node("idle");
    prometheus
        .sample("cpu_usage_avg_10m", "busy", 93.5, now.minusSeconds(20))
        .sample("mem_usage_avg_10m", "busy", 40, now.minusSeconds(20))
        .sample("cpu_usage_avg_10m", "idle", 5, now.minusSeconds(20))
        .sample("mem_usage_avg_10m", "idle", 12, now.minusSeconds(20));
    RecordingExtensions ext = open(prometheusArguments("2s"));
    FakeTask web = new FakeTask("ns/web-0").requests("cpu", "1", "memory", "1Gi");

    Status onBusy = ext.get(ExtensionPoint.PREDICATE).check(web, busy);
    Status onIdle = ext.get(ExtensionPoint.PREDICATE).check(web, idle);

    assertThat(onBusy.code()).isEqualTo(Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
    assertThat(onBusy.reasons()).containsExactly(UsagePlugin.CPU_OVERLOAD);
    assertThat(onIdle).isEqualTo(Status.OK);
    assertThat(ext.get(ExtensionPoint.NODE_ORDER).score(web, idle))
        .isGreaterThan(ext.get(ExtensionPoint.NODE_ORDER).score(web, busy));
    assertThat(prometheus.queries())
        .containsExactlyInAnyOrder("cpu_usage_avg_10m", "mem_usage_avg_10m");
  }

  @Test
  void staleSamples_areIgnoredAsStaleMetricsAre() {
    FakeNode busy = node("busy");
    prometheus
        .sample("cpu_usage_avg_10m", "busy", 99, now.minus(Duration.ofMinutes(6)))
        .sample("mem_usage_avg_10m", "busy", 99, now.minus(Duration.ofMinutes(6)));
    RecordingExtensions ext = open(prometheusArguments("2s"));

    assertThat(ext.get(ExtensionPoint.PREDICATE).check(new FakeTask("ns/a"), busy))
        .isEqualTo(Status.OK);
  }

  @Test
  void aSlowServer_isGivenUpAfterTheTimeout_withOneWarningAndNoUsage() {
    FakeNode busy = node("busy");
    prometheus
        .sample("cpu_usage_avg_10m", "busy", 99, now)
        .sample("mem_usage_avg_10m", "busy", 99, now)
        .delay(Duration.ofSeconds(3));
    long start = System.nanoTime();
    RecordingExtensions ext = open(prometheusArguments("300ms"));
    Duration waited = Duration.ofNanos(System.nanoTime() - start);
    open(prometheusArguments("300ms"));

    assertThat(waited).isLessThan(Duration.ofSeconds(2));
    assertThat(ext.get(ExtensionPoint.PREDICATE).check(new FakeTask("ns/a"), busy))
        .isEqualTo(Status.OK);
    assertThat(session.events())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.reason()).isEqualTo(UsagePlugin.METRICS_UNAVAILABLE);
              assertThat(e.message())
                  .startsWith("Prometheus " + prometheus.address() + ", query cpu_usage_avg_10m")
                  .contains("no answer within 300ms (usage.metrics.timeout)");
            });
  }

  @Test
  void theRequestsOwnTimeout_andTheWaitForIt_giveTheSameError() {
    // The request carries the timeout the wait for it has: whichever fires first, one message,
    // so the plugin warns once (the test above could see either).
    String what = "Prometheus http://p:9090, query cpu_usage_avg_10m";
    Duration timeout = Duration.ofMillis(300);

    String byTheClient =
        PrometheusMetrics.failure(
                what, new java.net.http.HttpTimeoutException("request timed out"), timeout)
            .getMessage();
    String byTheWait =
        PrometheusMetrics.failure(what, new java.util.concurrent.TimeoutException(), timeout)
            .getMessage();

    assertThat(byTheClient)
        .isEqualTo(byTheWait)
        .isEqualTo(what + ": no answer within 300ms (usage.metrics.timeout)");
    assertThat(
            PrometheusMetrics.failure(what, new java.net.ConnectException("refused"), timeout)
                .getMessage())
        .isEqualTo(what + ": ConnectException refused");
  }

  @Test
  void anErrorAnswer_isReportedWithTheStatus() {
    node("busy");
    prometheus.answer(503, "service unavailable");

    open(prometheusArguments("2s"));

    assertThat(session.events())
        .extracting(RecordedEvent::message)
        .singleElement()
        .asString()
        .contains("HTTP 503 service unavailable");
  }

  @Test
  void anAnswerThatIsNotAVector_isReported() {
    node("busy");
    prometheus.answer(200, "{\"status\":\"error\",\"error\":\"parse error at char 4\"}");

    open(prometheusArguments("2s"));

    assertThat(session.events())
        .extracting(RecordedEvent::message)
        .singleElement()
        .asString()
        .contains("status is not success (parse error at char 4)");
  }

  @Test
  void arguments_badValuesNameTheKey() {
    assertThatThrownBy(() -> factory.create(args("usage.metrics.type", "graphite")))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("usage.metrics.type")
        .hasMessageContaining("prometheus or metrics-server");
    assertThatThrownBy(() -> factory.create(args("usage.metrics.type", "prometheus")))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("usage.metrics.address");
    assertThatThrownBy(() -> factory.create(args("usage.metrics.address", "prometheus:9090")))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("an http or https URL");
    assertThatThrownBy(
            () ->
                factory.create(
                    new PluginArguments(
                        "usage",
                        Map.of(
                            "usage.metrics.address", "http://p:9090", "usage.metrics.timeout", "0"),
                        false)))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("usage.metrics.timeout");
  }

  @Test
  void arguments_anAddressAloneMeansPrometheus() {
    UsageMetricsArguments m =
        UsageMetricsArguments.from(args("usage.metrics.address", "http://prometheus:9090/"));

    assertThat(m.prometheus()).isTrue();
    assertThat(m.timeout()).isEqualTo(UsageMetricsArguments.DEFAULT_TIMEOUT);
  }

  private static PluginArguments args(String key, Object value) {
    return new PluginArguments("usage", Map.of(key, value), false);
  }
}
