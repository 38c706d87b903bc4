package dev.caldera.admin.internal;

import dev.caldera.api.host.MetricsSource;
import dev.caldera.framework.loop.LoopMetrics;
import dev.caldera.framework.loop.SessionRecord;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code /metrics} through the Prometheus Java client: the JVM's and the process's metrics (heap,
 * GC, threads, CPU, open file descriptors), latency histograms per action and per plugin function,
 * observed after every session, and the loop's and the {@link MetricsSource}s' figures, read at
 * each scrape (with the pending-time gauge histogram of {@link InsightMetrics}). Rendered in the
 * Prometheus text format (0.0.4), or OpenMetrics when the scraper asks for it.
 */
public final class Metrics {

  /** The content type of the text format. */
  public static final String CONTENT_TYPE = PrometheusTextFormatWriter.CONTENT_TYPE;

  /** Bounds of the per-action histogram, in seconds: a millisecond to a minute. */
  static final double[] ACTION_SECONDS = {
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60
  };

  /** Bounds of the per-function histogram (a session's time in one plugin function), seconds. */
  static final double[] FUNCTION_SECONDS = {
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10
  };

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Histogram actions;
  private final Histogram functions;

  /** Bounds of the scheduling latency histogram (a pod's creation to its bind), in seconds. */
  static final double[] LATENCY_SECONDS = {
    0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600
  };

  private final Histogram latency;
  private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
  private final OpenMetricsTextFormatWriter openMetrics = OpenMetricsTextFormatWriter.create();

  /** The content type of OpenMetrics, for a scraper that asks for it. */
  public static final String OPENMETRICS_CONTENT_TYPE = OpenMetricsTextFormatWriter.CONTENT_TYPE;

  /**
   * @param jvm whether to export the JVM's and the process's metrics (off in tests that compare
   *     output)
   */
  public Metrics(boolean jvm) {
    if (jvm) {
      JvmMetrics.builder().register(registry);
    }
    actions =
        Histogram.builder()
            .name("caldera_action_duration_seconds")
            .help("Time an action took in a session.")
            .labelNames("action")
            .classicOnly()
            .classicUpperBounds(ACTION_SECONDS)
            .register(registry);
    functions =
        Histogram.builder()
            .name("caldera_plugin_function_duration_seconds")
            .help(
                "Time a session spent in one plugin's function (predicate, prePredicate, nodeOrder,"
                    + " batchNodeOrder over all its calls; onSessionOpen, onSessionClose).")
            .labelNames("plugin", "function")
            .classicOnly()
            .classicUpperBounds(FUNCTION_SECONDS)
            .register(registry);
    latency =
        Histogram.builder()
            .name("caldera_pod_scheduling_latency_seconds")
            .help(
                "From a pod's creation to the session that bound it, per queue (Volcano's"
                    + " e2e scheduling latency, Kueue's admission wait time).")
            .labelNames("queue")
            .classicOnly()
            .classicUpperBounds(LATENCY_SECONDS)
            .register(registry);
  }

  /** Observes one session's timings. */
  public void observe(SessionRecord session) {
    for (SessionRecord.Bind b : session.binds()) {
      if (b.waitedSeconds() >= 0) {
        latency.labelValues(b.queue()).observe(b.waitedSeconds());
      }
    }
    session.actionNanos().forEach((a, n) -> actions.labelValues(a).observe(n / 1e9));
    session
        .functionNanos()
        .forEach(
            (key, n) -> {
              int slash = key.indexOf('/');
              functions
                  .labelValues(key.substring(0, slash), key.substring(slash + 1))
                  .observe(n / 1e9);
            });
  }

  /**
   * Everything, in the text format; a source that throws is left out, with a comment saying so.
   *
   * @param loop null when no loop runs (only the plugin gauge of the loop's figures is written)
   * @param pluginsLoaded how many plugin factories are registered now
   */
  public String scrape(LoopMetrics loop, int pluginsLoaded, List<MetricsSource> sources) {
    return scrape(loop, pluginsLoaded, sources, false);
  }

  /**
   * Everything, in the text format or, when {@code openMetricsFormat}, in OpenMetrics (ending with
   * {@code # EOF}; a failed source is then only left out).
   */
  public String scrape(
      LoopMetrics loop, int pluginsLoaded, List<MetricsSource> sources, boolean openMetricsFormat) {
    Map<String, MetricSnapshot> all = new LinkedHashMap<>();
    LoopFamilies.of(loop, pluginsLoaded).forEach(s -> all.put(s.getMetadata().getName(), s));
    List<String> failed = new ArrayList<>();
    for (MetricsSource source : sources) {
      List<MetricsSource.Family> families;
      MetricSnapshot pending = null;
      try {
        families = source.metrics();
        if (source instanceof InsightMetrics insight) {
          pending = insight.pendingTime();
        }
      } catch (RuntimeException e) {
        failed.add(
            "# metrics of "
                + source.getClass().getName()
                + " failed: "
                + String.valueOf(e.getMessage()).replace('\n', ' '));
        continue;
      }
      for (MetricsSource.Family f : families) {
        MetricSnapshot s = snapshot(f);
        all.putIfAbsent(s.getMetadata().getName(), s);
      }
      if (pending != null) {
        all.putIfAbsent(pending.getMetadata().getName(), pending);
      }
    }
    registry.scrape().forEach(s -> all.putIfAbsent(s.getMetadata().getName(), s));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      if (openMetricsFormat) {
        openMetrics.write(out, new MetricSnapshots(all.values()));
        return out.toString(StandardCharsets.UTF_8);
      }
      writer.write(out, new MetricSnapshots(all.values()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    StringBuilder text = new StringBuilder(out.toString(StandardCharsets.UTF_8));
    failed.forEach(line -> text.append(line).append('\n'));
    return text.toString();
  }

  /** A {@link MetricsSource} family as a snapshot (a counter's name loses its {@code _total}). */
  static MetricSnapshot snapshot(MetricsSource.Family f) {
    if (f.type().equals("counter")) {
      CounterSnapshot.Builder b =
          CounterSnapshot.builder().name(withoutTotal(f.name())).help(f.help());
      f.samples()
          .forEach(
              s ->
                  b.dataPoint(
                      CounterSnapshot.CounterDataPointSnapshot.builder()
                          .labels(labels(s.labels()))
                          .value(s.value())
                          .build()));
      return b.build();
    }
    GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(f.name()).help(f.help());
    f.samples()
        .forEach(
            s ->
                b.dataPoint(
                    GaugeSnapshot.GaugeDataPointSnapshot.builder()
                        .labels(labels(s.labels()))
                        .value(s.value())
                        .build()));
    return b.build();
  }

  static String withoutTotal(String name) {
    return name.endsWith("_total") ? name.substring(0, name.length() - "_total".length()) : name;
  }

  /** Labels from alternating names and values. */
  static Labels labels(List<String> namesAndValues) {
    if (namesAndValues.isEmpty()) {
      return Labels.EMPTY;
    }
    return Labels.of(namesAndValues.toArray(String[]::new));
  }

  /** The loop's families. */
  private static final class LoopFamilies {
    private final List<MetricSnapshot> out = new ArrayList<>();

    static List<MetricSnapshot> of(LoopMetrics m, int pluginsLoaded) {
      LoopFamilies f = new LoopFamilies();
      f.gauge("caldera_plugins_loaded", "Plugin factories registered now.", pluginsLoaded);
      if (m != null) {
        f.loop(m);
      }
      return f.out;
    }

    private void loop(LoopMetrics m) {
      counter("caldera_sessions", "Scheduling sessions run.", Map.of(List.of(), m.sessions()));
      histogram(
          "caldera_session_duration_seconds",
          "Time a session took, from opening on the snapshot to its decisions.",
          m.sessionSeconds());
      counter(
          "caldera_binds",
          "Pods bound to nodes: on a real cluster, bindings the API server accepted.",
          Map.of(List.of(), m.binds()));
      counter(
          "caldera_evictions",
          "Pods evicted by preempt and reclaim: on a real cluster, evictions the API server"
              + " accepted.",
          Map.of(List.of(), m.evictions()));
      Map<List<String>, Number> pending = new LinkedHashMap<>();
      m.pendingTasks().forEach((q, n) -> pending.put(List.of("queue", q), n));
      gauges("caldera_pending_tasks", "Tasks pending after the last session, per queue.", pending);
      perQueue("caldera_queue_allocated", "Resources allocated to the queue.", m.queueAllocated());
      perQueue("caldera_queue_deserved", "The queue's deserved resources.", m.queueDeserved());
      perQueue("caldera_queue_capability", "The queue's resource capability.", m.queueCapability());
      Map<List<String>, Number> loads = new LinkedHashMap<>();
      m.pluginLoads().forEach((n, c) -> loads.put(List.of("plugin", n), c));
      counter("caldera_plugin_loads", "Times a bundle providing the plugin came.", loads);
      Map<List<String>, Number> unloads = new LinkedHashMap<>();
      m.pluginUnloads().forEach((n, c) -> unloads.put(List.of("plugin", n), c));
      counter("caldera_plugin_unloads", "Times the bundle providing the plugin went.", unloads);
      counter(
          "caldera_policy_rejections",
          "Policy file versions refused for errors.",
          Map.of(List.of(), m.policyErrors()));
      Map<List<String>, Number> policyErrors = new LinkedHashMap<>();
      m.policyFilesInError().forEach(file -> policyErrors.put(List.of("file", file), 1));
      gauges(
          "caldera_policy_errors",
          "1 for each policy file whose current text has errors; its last good version, if any,"
              + " stays in force.",
          policyErrors);
      Map<List<String>, Number> reloads = new LinkedHashMap<>();
      reloads.put(List.of("result", "accepted"), m.confReloads());
      reloads.put(List.of("result", "rejected"), m.confRejections());
      counter("caldera_conf_reloads", "Conf file versions read, by outcome.", reloads);
      counter(
          "caldera_bundle_errors",
          "Bundles refused or left unresolved.",
          Map.of(List.of(), m.bundleErrors()));
      gauge(
          "caldera_scheduling_held",
          "1 while no session runs because the conf names something that is not loaded.",
          m.held() ? 1 : 0);
      Map<List<String>, Number> held = new LinkedHashMap<>();
      m.heldPlugins().forEach(p -> held.put(List.of("plugin", p), 1));
      gauges(
          "caldera_scheduling_held_plugin",
          "1 for each plugin the conf names that is missing while scheduling is held.",
          held);
    }

    private void counter(String name, String help, Map<List<String>, ? extends Number> values) {
      CounterSnapshot.Builder b = CounterSnapshot.builder().name(name).help(help);
      values.forEach(
          (labels, v) ->
              b.dataPoint(
                  CounterSnapshot.CounterDataPointSnapshot.builder()
                      .labels(labels(labels))
                      .value(v.doubleValue())
                      .build()));
      out.add(b.build());
    }

    private void gauge(String name, String help, double value) {
      gauges(name, help, Map.of(List.of(), value));
    }

    private void gauges(String name, String help, Map<List<String>, ? extends Number> values) {
      GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(help);
      values.forEach(
          (labels, v) ->
              b.dataPoint(
                  GaugeSnapshot.GaugeDataPointSnapshot.builder()
                      .labels(labels(labels))
                      .value(v.doubleValue())
                      .build()));
      out.add(b.build());
    }

    private void perQueue(String name, String help, Map<String, Map<String, Double>> values) {
      Map<List<String>, Number> samples = new LinkedHashMap<>();
      values.forEach(
          (queue, resources) ->
              resources.forEach(
                  (resource, v) -> samples.put(List.of("queue", queue, "resource", resource), v)));
      gauges(name, help + " Cores for cpu, bytes for memory, units otherwise.", samples);
    }

    private void histogram(String name, String help, LoopMetrics.Histogram h) {
      int n = h.bounds().size();
      double[] bounds = new double[n + 1];
      long[] counts = new long[n + 1];
      long previous = 0;
      for (int i = 0; i < n; i++) {
        bounds[i] = h.bounds().get(i);
        counts[i] = h.cumulativeCounts().get(i) - previous;
        previous = h.cumulativeCounts().get(i);
      }
      bounds[n] = Double.POSITIVE_INFINITY;
      counts[n] = h.count() - previous;
      out.add(
          HistogramSnapshot.builder()
              .name(name)
              .help(help)
              .dataPoint(
                  HistogramSnapshot.HistogramDataPointSnapshot.builder()
                      .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, counts))
                      .sum(h.sum())
                      .build())
              .build());
    }
  }
}
