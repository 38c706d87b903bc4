package dev.caldera.admin.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
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

    String text = Prometheus.render(backend.monitor.metrics(), 21);

    assertThat(text)
        .contains(
            "# TYPE caldera_sessions_total counter\ncaldera_sessions_total 3\n",
            "# TYPE caldera_session_duration_seconds histogram\n",
            "caldera_session_duration_seconds_bucket{le=\"0.01\"} 2\n",
            "caldera_session_duration_seconds_bucket{le=\"0.1\"} 3\n",
            "caldera_session_duration_seconds_bucket{le=\"+Inf\"} 3\n",
            "caldera_session_duration_seconds_sum 0.0125\n",
            "caldera_session_duration_seconds_count 3\n",
            "caldera_evictions_total 1\n",
            "caldera_pending_tasks{queue=\"q1\"} 2\n",
            "caldera_queue_allocated{queue=\"q1\",resource=\"cpu\"} 1.5\n",
            "caldera_queue_deserved{queue=\"q1\",resource=\"cpu\"} 4\n",
            "caldera_plugin_loads_total{plugin=\"gang\"} 1\n",
            "caldera_policy_rejections_total 2\n",
            "# TYPE caldera_policy_errors gauge\ncaldera_policy_errors{file=\"broken.policy\"} 1\n",
            "caldera_conf_reloads_total{result=\"rejected\"} 1\n",
            "caldera_scheduling_held 1\n",
            "caldera_scheduling_held_plugin{plugin=\"capacity\"} 1\n",
            "caldera_plugins_loaded 21\n");
    for (String line : text.split("\n")) {
      assertThat(line)
          .matches("# (HELP|TYPE) caldera_\\w+ .*|caldera_\\w+(\\{.*\\})? -?[0-9.Ee+-]+");
    }
  }

  @Test
  void prometheus_escapesLabelValues() {
    assertThat(Prometheus.escape("a\"b\\c\nd")).isEqualTo("a\\\"b\\\\c\\nd");
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
