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
    String exposition = Prometheus.render(new FakeBackend().monitor().orElseThrow().metrics(), 3);
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
            "caldera_leader");
    for (JsonNode panel : dashboard().get("panels")) {
      assertThat(panel.get("targets")).as(panel.get("title").asText()).isNotEmpty();
      assertThat(panel.get("datasource").get("uid").asText()).isEqualTo("${datasource}");
    }
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
