package dev.caldera.admin.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.framework.loop.SessionRecord;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;

class AdminPartsTest {

  private final FakeBackend backend = new FakeBackend();

  @Test
  void jarCheck_tellsWhyAJarIsNotABundle() throws Exception {
    assertThat(JarCheck.problem("plain text".getBytes()))
        .hasValueSatisfying(p -> assertThat(p).startsWith("not a jar"));

    Manifest m = new Manifest();
    m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    ByteArrayOutputStream plain = new ByteArrayOutputStream();
    try (JarOutputStream jar = new JarOutputStream(plain, m)) {
      jar.flush();
    }
    assertThat(JarCheck.problem(plain.toByteArray()))
        .hasValueSatisfying(p -> assertThat(p).contains("no Bundle-SymbolicName"));

    byte[] bundle = AdminServerTest.bundleJar("demo.bundle");
    assertThat(JarCheck.problem(bundle)).isEmpty();
    assertThat(JarCheck.identity(bundle)).contains(new JarCheck.Identity("demo.bundle", "1.2.3"));
  }

  @Test
  void prometheus_writesCountersHistogramAndLabelledGauges() {
    backend.holding = true;

    String text = new Metrics(false).scrape(backend.monitor.metrics(), 21, List.of());

    assertThat(text)
        .contains(
            "# TYPE caldera_sessions_total counter\ncaldera_sessions_total 3.0\n",
            "# TYPE caldera_session_duration_seconds histogram\n",
            "caldera_session_duration_seconds_bucket{le=\"0.01\"} 2\n",
            "caldera_session_duration_seconds_bucket{le=\"0.1\"} 3\n",
            "caldera_session_duration_seconds_bucket{le=\"+Inf\"} 3\n",
            "caldera_session_duration_seconds_sum 0.0125\n",
            "caldera_session_duration_seconds_count 3\n",
            "caldera_evictions_total 1.0\n",
            "caldera_pending_tasks{queue=\"q1\"} 2.0\n",
            "caldera_queue_allocated{queue=\"q1\",resource=\"cpu\"} 1.5\n",
            "caldera_queue_deserved{queue=\"q1\",resource=\"cpu\"} 4.0\n",
            "caldera_plugin_loads_total{plugin=\"gang\"} 1.0\n",
            "caldera_policy_rejections_total 2.0\n",
            "# TYPE caldera_policy_errors gauge\ncaldera_policy_errors{file=\"broken.policy\"} 1.0\n",
            "caldera_conf_reloads_total{result=\"rejected\"} 1.0\n",
            "caldera_scheduling_held 1.0\n",
            "caldera_scheduling_held_plugin{plugin=\"capacity\"} 1.0\n",
            "caldera_plugins_loaded 21.0\n");
    for (String line : text.split("\n")) {
      assertThat(line)
          .matches("# (HELP|TYPE) caldera_\\w+ .*|caldera_\\w+(\\{.*\\})? -?[0-9.Ee+-]+");
    }
  }

  @Test
  void metrics_addJvmAndProcessMetrics_andLatencyHistogramsPerActionAndPluginFunction() {
    Metrics metrics = new Metrics(true);
    metrics.observe(
        new SessionRecord(
            1,
            "s1",
            java.time.Instant.EPOCH,
            12,
            List.of(),
            List.of(),
            0,
            java.util.Map.of(),
            java.util.Map.of(),
            java.util.Map.of("allocate", 3_000_000L, "backfill", 200_000L),
            java.util.Map.of("predicates/predicate", 1_500_000L, "gang/onSessionOpen", 40_000L)));

    String text = metrics.scrape(null, 2, List.of());

    assertThat(text)
        .contains(
            "# TYPE caldera_action_duration_seconds histogram\n",
            "caldera_action_duration_seconds_bucket{action=\"allocate\",le=\"0.0025\"} 0\n",
            "caldera_action_duration_seconds_bucket{action=\"allocate\",le=\"0.005\"} 1\n",
            "caldera_action_duration_seconds_count{action=\"backfill\"} 1\n",
            "caldera_plugin_function_duration_seconds_bucket{function=\"predicate\",plugin=\"predicates\",le=\"0.0025\"} 1\n",
            "caldera_plugin_function_duration_seconds_count{function=\"onSessionOpen\",plugin=\"gang\"} 1\n")
        // The JVM's and the process's own, from the client's JVM instrumentation.
        .contains(
            "# TYPE jvm_memory_used_bytes gauge",
            "jvm_memory_used_bytes{area=\"heap\"}",
            "# TYPE jvm_gc_collection_seconds summary",
            "# TYPE jvm_threads_current gauge",
            "# TYPE process_cpu_seconds_total counter",
            "# TYPE process_open_fds gauge",
            "caldera_plugins_loaded 2.0\n");
  }

  @Test
  void shellCommands_printPluginsConfPoliciesAndSessions() {
    ShellCommands shell = new ShellCommands(backend);

    assertThat(shell.plugins())
        .contains("gang", "caldera-plugin-gang", "1.0.0", "ACTIVE", "MISSING");
    assertThat(shell.conf())
        .contains("# /conf/scheduler.conf", "# refused: bad line", "actions: allocate");
    assertThat(shell.policies()).contains("# tidal.policy", "policy tidal");
    assertThat(shell.sessions(5)).contains("#3", "binds=1", "caldera-plugin-gang 1.0.0");

    backend.loopRunning = false;
    assertThat(shell.sessions(5)).contains("not running");
  }
}
