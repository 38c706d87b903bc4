package dev.caldera.admin.internal;

import dev.caldera.framework.loop.LoopMetrics;
import dev.caldera.framework.loop.MetricsSource;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Renders the loop's figures in the Prometheus text exposition format (version 0.0.4). */
public final class Prometheus {

  /** The content type of the format. */
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final StringBuilder out = new StringBuilder();

  private Prometheus() {}

  /**
   * All metrics.
   *
   * @param m null when no loop runs (only the plugin gauge is written)
   * @param pluginsLoaded how many plugin factories are registered now
   */
  public static String render(LoopMetrics m, int pluginsLoaded) {
    return render(m, pluginsLoaded, List.of());
  }

  /**
   * All metrics, then the families of {@code sources} (a source that throws is left out, with a
   * comment saying so).
   */
  public static String render(LoopMetrics m, int pluginsLoaded, List<MetricsSource> sources) {
    Prometheus p = new Prometheus();
    p.loop(m, pluginsLoaded);
    for (MetricsSource source : sources) {
      List<MetricsSource.Family> families;
      try {
        families = source.metrics();
      } catch (RuntimeException e) {
        p.out.append("# metrics of ").append(source.getClass().getName()).append(" failed: ");
        p.out.append(escape(String.valueOf(e.getMessage()))).append('\n');
        continue;
      }
      for (MetricsSource.Family f : families) {
        p.header(f.name(), f.type(), f.help());
        f.samples().forEach(s -> p.sample(f.name(), s.labels(), s.value()));
      }
    }
    return p.out.toString();
  }

  /** The loop's own families (only the plugin gauge when no loop runs). */
  private void loop(LoopMetrics m, int pluginsLoaded) {
    header("caldera_plugins_loaded", "gauge", "Plugin factories registered now.");
    sample("caldera_plugins_loaded", List.of(), pluginsLoaded);
    if (m == null) {
      return;
    }
    counter("caldera_sessions_total", "Scheduling sessions run.", m.sessions());
    histogram(
        "caldera_session_duration_seconds",
        "Time a session took, from opening on the snapshot to its decisions.",
        m.sessionSeconds());
    counter(
        "caldera_binds_total",
        "Pods bound to nodes: on a real cluster, bindings the API server accepted.",
        m.binds());
    counter(
        "caldera_evictions_total",
        "Pods evicted by preempt and reclaim: on a real cluster, evictions the API server accepted.",
        m.evictions());

    header("caldera_pending_tasks", "gauge", "Tasks pending after the last session, per queue.");
    m.pendingTasks().forEach((q, n) -> sample("caldera_pending_tasks", List.of("queue", q), n));
    perQueue("caldera_queue_allocated", "Resources allocated to the queue.", m.queueAllocated());
    perQueue("caldera_queue_deserved", "The queue's deserved resources.", m.queueDeserved());
    perQueue("caldera_queue_capability", "The queue's resource capability.", m.queueCapability());

    header("caldera_plugin_loads_total", "counter", "Times a bundle providing the plugin came.");
    m.pluginLoads()
        .forEach((n, c) -> sample("caldera_plugin_loads_total", List.of("plugin", n), c));
    header(
        "caldera_plugin_unloads_total", "counter", "Times the bundle providing the plugin went.");
    m.pluginUnloads()
        .forEach((n, c) -> sample("caldera_plugin_unloads_total", List.of("plugin", n), c));

    counter(
        "caldera_policy_rejections_total",
        "Policy file versions refused for errors.",
        m.policyErrors());
    header(
        "caldera_policy_errors",
        "gauge",
        "1 for each policy file whose current text has errors; its last good version, if any,"
            + " stays in force.");
    for (String file : m.policyFilesInError()) {
      sample("caldera_policy_errors", List.of("file", file), 1);
    }
    header("caldera_conf_reloads_total", "counter", "Conf file versions read, by outcome.");
    sample("caldera_conf_reloads_total", List.of("result", "accepted"), m.confReloads());
    sample("caldera_conf_reloads_total", List.of("result", "rejected"), m.confRejections());
    counter("caldera_bundle_errors_total", "Bundles refused or left unresolved.", m.bundleErrors());

    header(
        "caldera_scheduling_held",
        "gauge",
        "1 while no session runs because the conf names something that is not loaded.");
    sample("caldera_scheduling_held", List.of(), m.held() ? 1 : 0);
    header(
        "caldera_scheduling_held_plugin",
        "gauge",
        "1 for each plugin the conf names that is missing while scheduling is held.");
    for (String plugin : m.heldPlugins()) {
      sample("caldera_scheduling_held_plugin", List.of("plugin", plugin), 1);
    }
  }

  private void counter(String name, String help, long value) {
    header(name, "counter", help);
    sample(name, List.of(), value);
  }

  private void perQueue(String name, String help, Map<String, Map<String, Double>> values) {
    header(name, "gauge", help + " Cores for cpu, bytes for memory, units otherwise.");
    values.forEach(
        (queue, resources) ->
            resources.forEach(
                (resource, v) -> sample(name, List.of("queue", queue, "resource", resource), v)));
  }

  private void histogram(String name, String help, LoopMetrics.Histogram h) {
    header(name, "histogram", help);
    for (int i = 0; i < h.bounds().size(); i++) {
      sample(
          name + "_bucket", List.of("le", number(h.bounds().get(i))), h.cumulativeCounts().get(i));
    }
    sample(name + "_bucket", List.of("le", "+Inf"), h.count());
    sample(name + "_sum", List.of(), h.sum());
    sample(name + "_count", List.of(), h.count());
  }

  private void header(String name, String type, String help) {
    out.append("# HELP ").append(name).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  /** One line; {@code labels} alternate names and values. */
  private void sample(String name, List<String> labels, double value) {
    out.append(name);
    if (!labels.isEmpty()) {
      out.append('{');
      for (int i = 0; i < labels.size(); i += 2) {
        if (i > 0) {
          out.append(',');
        }
        out.append(labels.get(i)).append("=\"").append(escape(labels.get(i + 1))).append('"');
      }
      out.append('}');
    }
    out.append(' ').append(number(value)).append('\n');
  }

  static String number(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return String.format(Locale.ROOT, "%s", v);
  }

  static String escape(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
