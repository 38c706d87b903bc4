package dev.caldera.admin.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code runtime/deploy/grafana-dashboard.json} queries only metrics Caldera exports: every {@code
 * caldera_*} name in a panel's expression is a family of {@code /metrics} (the loop's, rendered
 * here; the kube bundle's {@code caldera_kube_*} and {@code caldera_leader*} are checked by the
 * kube bundle's own test), and the panels cover what an operator watches.
 */
class GrafanaDashboardTest {

  static final Path DASHBOARD = Path.of("../../runtime/deploy/grafana-dashboard.json");

  private static final Pattern METRIC = Pattern.compile("\\bcaldera_[a-z_]+");

  @Test
  void everyExpression_namesAFamilyTheLoopExports() throws IOException {
    Metrics metrics = new Metrics(false);
    metrics.observe(
        new dev.caldera.framework.loop.SessionRecord(
            1,
            "s1",
            java.time.Instant.EPOCH,
            12,
            List.of(new dev.caldera.framework.loop.SessionRecord.Bind("ns/p", "n1", "q1", 3.5)),
            List.of(),
            0,
            java.util.Map.of(),
            java.util.Map.of(),
            java.util.Map.of(),
            java.util.Map.of()));
    String exposition =
        metrics.scrape(everyFamilyWithASample(), 3, List.of(new InsightMetrics(cardsAndPending())));
    Set<String> families = new TreeSet<>();
    Matcher types = Pattern.compile("(?m)^# TYPE (\\S+) ").matcher(exposition);
    while (types.find()) {
      families.add(types.group(1));
    }

    Set<String> queried = metrics(dashboard());

    assertThat(queried).isNotEmpty();
    assertThat(queried)
        .filteredOn(n -> !n.startsWith("caldera_kube_") && !n.startsWith("caldera_leader"))
        .isNotEmpty()
        .allSatisfy(n -> assertThat(families).as("families of /metrics").contains(n));
  }

  @Test
  void panels_coverSessionsBindsQueuesFailuresPluginsHoldsAndTheLeader() throws IOException {
    Set<String> queried = metrics(dashboard());

    assertThat(queried)
        .contains(
            "caldera_sessions_total",
            "caldera_kube_binds_total",
            "caldera_pending_tasks",
            "caldera_queue_allocated",
            "caldera_queue_deserved",
            "caldera_plugin_loads_total",
            "caldera_scheduling_held",
            "caldera_leader",
            "caldera_queue_cards_allocated",
            "caldera_cards_inventory",
            "caldera_pod_scheduling_latency_seconds",
            "caldera_pending_podgroups",
            "caldera_queue_pending_seconds",
            "caldera_binds_total",
            "caldera_evictions_total");
    assertThat(dashboard().toString()).contains("jvm_memory_used_bytes");
    for (JsonNode panel : dashboard().get("panels")) {
      assertThat(panel.get("targets")).as(panel.get("title").asText()).isNotEmpty();
      assertThat(panel.get("datasource").get("uid").asText()).isEqualTo("${datasource}");
    }
  }

  /**
   * A loop's insight with cards, a quota above the inventory, a waiting pod group and one never
   * fitting.
   */
  static dev.caldera.framework.loop.QueueInsight cardsAndPending() {
    FakeBackend fake = new FakeBackend();
    dev.caldera.framework.loop.QueueInsight base = fake.insight;
    return new dev.caldera.framework.loop.QueueInsight() {
      @Override
      public List<QueueView> queues() {
        return base.queues();
      }

      @Override
      public java.util.Optional<List<Waiting>> pending(String queue) {
        return base.pending(queue);
      }

      @Override
      public java.util.Optional<JobView> job(String namespace, String name) {
        return base.job(namespace, name);
      }

      @Override
      public List<Waiting> orphans() {
        return base.orphans();
      }

      @Override
      public java.time.Instant lastSession() {
        return base.lastSession();
      }

      @Override
      public List<CardModel> cards() {
        return List.of(
            new CardModel("H100", "whole", 8, 6, 2, 1, List.of(new QueueCards("q1", 6, 12, true))));
      }

      @Override
      public java.util.Map<String, List<Double>> pendingSeconds() {
        return base.pendingSeconds();
      }

      @Override
      public List<NeverFits> neverFits() {
        return List.of(new NeverFits("ns/big", "q1", "H100", 16, 12, "card quota", "m"));
      }
    };
  }

  /**
   * Loop figures with a sample in every family (the client leaves a family without samples out).
   */
  static dev.caldera.framework.loop.LoopMetrics everyFamilyWithASample() {
    return new dev.caldera.framework.loop.LoopMetrics(
        3,
        new dev.caldera.framework.loop.LoopMetrics.Histogram(
            List.of(0.01, 0.1), List.of(2L, 3L, 3L), 0.0125),
        5,
        1,
        java.util.Map.of("q1", 2L),
        java.util.Map.of("q1", java.util.Map.of("cpu", 1.5)),
        java.util.Map.of("q1", java.util.Map.of("cpu", 4.0)),
        java.util.Map.of("q1", java.util.Map.of("cpu", 8.0)),
        java.util.Map.of("gang", 2L),
        java.util.Map.of("gang", 1L),
        2,
        List.of("broken.policy"),
        1,
        1,
        true,
        List.of("capacity"),
        0);
  }

  static JsonNode dashboard() throws IOException {
    return new ObjectMapper().readTree(DASHBOARD.toFile());
  }

  /** The metric families the panels query (a histogram's series name its family). */
  static Set<String> metrics(JsonNode dashboard) {
    List<String> expressions = new ArrayList<>();
    dashboard
        .get("panels")
        .forEach(p -> p.get("targets").forEach(t -> expressions.add(t.get("expr").asText())));
    Set<String> names = new TreeSet<>();
    for (String expr : expressions) {
      Matcher m = METRIC.matcher(expr);
      while (m.find()) {
        names.add(m.group().replaceFirst("_(bucket|sum|count)$", ""));
      }
    }
    return names;
  }
}
