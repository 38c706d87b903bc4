package dev.caldera.admin.internal;

import dev.caldera.api.host.MetricsSource;
import dev.caldera.api.info.Blocker;
import dev.caldera.framework.loop.ClusterExport;
import dev.caldera.framework.loop.ConfStatus;
import dev.caldera.framework.loop.Health;
import dev.caldera.framework.loop.LoopEvent;
import dev.caldera.framework.loop.LoopMetrics;
import dev.caldera.framework.loop.PluginUse;
import dev.caldera.framework.loop.QueueInsight;
import dev.caldera.framework.loop.SchedulerMonitor;
import dev.caldera.framework.loop.SessionRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A backend with one loop (holding or running), two plugins, and recorded installs. */
final class FakeBackend implements AdminBackend {

  boolean holding;
  boolean stalled;
  boolean loopRunning = true;
  Health health;
  final List<MetricsSource> metricsSources = new ArrayList<>();
  final List<String> installed = new ArrayList<>();
  final List<String> uninstalled = new ArrayList<>();
  final List<LoopEvent> reported = new ArrayList<>();
  final List<String> queuesAsked = java.util.Collections.synchronizedList(new ArrayList<>());
  final List<String> uninstallsAsked = java.util.Collections.synchronizedList(new ArrayList<>());

  /** One queue, {@code training}, with ml/train-8 first and ml/train-7 second in line. */
  final QueueInsight insight =
      new QueueInsight() {
        private final Instant at = Instant.parse("2026-01-01T00:00:03Z");
        private final List<Blocker.Figure> figures =
            List.of(new Blocker.Figure("nvidia.com/gpu", 8, 60, 64, "realCapability"));
        private final Blocker blocker =
            new Blocker(
                Blocker.Stage.QUEUE_CAPABILITY,
                "enqueue",
                "proportion",
                Blocker.describe("training", figures),
                figures,
                Map.of());

        private Waiting waiting(String name, int position) {
          return new Waiting(
              name,
              "training",
              position,
              "Pending",
              1,
              Map.of("nvidia.com/gpu", 8.0),
              blocker,
              at,
              at);
        }

        @Override
        public List<QueueView> queues() {
          return List.of(
              new QueueView(
                  "training",
                  "",
                  1,
                  "Open",
                  Map.of("nvidia.com/gpu", 64.0),
                  Map.of(),
                  Map.of(),
                  Map.of("nvidia.com/gpu", 64.0),
                  Map.of("nvidia.com/gpu", 60.0),
                  2,
                  2,
                  List.of(
                      new Blocker.Figure("NVIDIA-A100", 0, 6, 8, "card quota"),
                      new Blocker.Figure("NVIDIA-H100", 0, 0, 4, "card quota"))));
        }

        @Override
        public Optional<List<Waiting>> pending(String queue) {
          queuesAsked.add(queue);
          return queue.equals("training")
              ? Optional.of(List.of(waiting("ml/train-8", 1), waiting("ml/train-7", 2)))
              : Optional.empty();
        }

        @Override
        public Optional<JobView> job(String namespace, String name) {
          if (!(namespace + "/" + name).equals("ml/train-7")) {
            return Optional.empty();
          }
          return Optional.of(
              new JobView(
                  "ml/train-7",
                  "training",
                  "Pending",
                  1,
                  waiting("ml/train-7", 2),
                  List.of(new Reason(at, at, blocker)),
                  List.of(new Task("train-7-0", "Pending", "", "pod group is not ready")),
                  List.of(),
                  List.of(
                      "holding 2 NVIDIA-H100 on node-3 for ml/train-7 (freed by evictions for"
                          + " it) until it binds, or for 2 more sessions")));
        }

        @Override
        public List<Waiting> orphans() {
          return List.of();
        }

        @Override
        public List<Eviction> evictions(int max) {
          List<Eviction> all =
              List.of(
                  new Eviction(
                      at,
                      "ml/train-6-0",
                      "ml/train-6",
                      "training",
                      "gpu-1",
                      "reclaim",
                      "ml/svc-0",
                      "ml/svc",
                      "inference",
                      Map.of("nvidia.com/gpu", "4"),
                      "tidal.policy:18 (any may reclaim training)",
                      "reclaim evicted ml/train-6-0 ..."));
          return all.subList(Math.max(0, all.size() - max), all.size());
        }

        @Override
        public Instant lastSession() {
          return at;
        }

        @Override
        public List<CardModel> cards() {
          return List.of(
              new CardModel(
                  "NVIDIA-A100",
                  "whole",
                  8,
                  6,
                  2,
                  1,
                  List.of(new QueueCards("training", 6, 6, false))));
        }

        @Override
        public Map<String, List<Double>> pendingSeconds() {
          return Map.of("training", List.of(0.3, 75.0));
        }
      };

  @Override
  public Optional<QueueInsight> insight() {
    return loopRunning ? Optional.of(insight) : Optional.empty();
  }

  final SchedulerMonitor monitor =
      new SchedulerMonitor() {
        @Override
        public Health health() {
          if (health != null) {
            return health;
          }
          if (stalled) {
            return new Health(
                "running",
                List.of(
                    "the scheduling loop has not finished a cycle since 2026-01-01T00:00:03Z"
                        + " (liveness timeout PT2M)"),
                List.of(),
                3,
                Instant.parse("2026-01-01T00:00:03Z"),
                Instant.parse("2026-01-01T00:00:03Z"),
                false);
          }
          return holding
              ? new Health(
                  "holding",
                  List.of("plugin \"capacity\" is not loaded"),
                  List.of("capacity"),
                  3,
                  null)
              : new Health(
                  "running", List.of(), List.of(), 3, Instant.parse("2026-01-01T00:00:03Z"));
        }

        @Override
        public List<SessionRecord> sessions(int max) {
          return List.of(
                  new SessionRecord(
                      3,
                      "u3",
                      Instant.parse("2026-01-01T00:00:03Z"),
                      2.5,
                      List.of(new SessionRecord.Bind("ns/p1", "n1")),
                      List.of(),
                      0,
                      Map.of("gang", "caldera-plugin-gang 1.0.0"),
                      Map.of("q1", 0L)))
              .subList(0, Math.min(1, max));
        }

        @Override
        public List<LoopEvent> events(int max) {
          return List.of(new LoopEvent(Instant.EPOCH, "Normal", "ConfLoaded", "ok"));
        }

        @Override
        public ConfStatus conf() {
          return new ConfStatus(
              "/conf/scheduler.conf",
              "actions: allocate\n",
              Instant.EPOCH,
              "bad line",
              List.of("allocate"),
              List.of("gang", "capacity"));
        }

        @Override
        public Map<String, String> policies() {
          return Map.of("tidal.policy", "policy tidal\n");
        }

        @Override
        public List<dev.caldera.framework.loop.AuditDisagreement> auditDisagreements() {
          Instant at = Instant.parse("2026-01-01T00:00:03Z");
          return List.of(
              new dev.caldera.framework.loop.AuditDisagreement(
                  "Pod",
                  "ml/train-7-0",
                  "audit policy strict would deny reclaiming ml/train-7-0 for ml/svc-0: by"
                      + " strict.policy:19 (otherwise deny); enforced: allowed, by tidal.policy:18"
                      + " (any may reclaim training)",
                  at,
                  at,
                  2));
        }

        @Override
        public LoopMetrics metrics() {
          return new LoopMetrics(
              3,
              new LoopMetrics.Histogram(List.of(0.01, 0.1), List.of(2L, 3L, 3L), 0.0125),
              5,
              1,
              Map.of("q1", 2L),
              Map.of("q1", Map.of("cpu", 1.5)),
              Map.of("q1", Map.of("cpu", 4.0)),
              Map.of(),
              Map.of("gang", 1L),
              Map.of(),
              2,
              List.of("broken.policy"),
              1,
              1,
              holding,
              holding ? List.of("capacity") : List.of(),
              0);
        }

        @Override
        public List<PluginUse> pluginUses() {
          return List.of(new PluginUse("gang", "caldera-plugin-gang 1.0.0", 3));
        }

        @Override
        public void report(LoopEvent event) {
          reported.add(event);
        }

        @Override
        public void addListener(Listener listener) {}

        @Override
        public void removeListener(Listener listener) {}
      };

  @Override
  public Optional<SchedulerMonitor> monitor() {
    return loopRunning ? Optional.of(monitor) : Optional.empty();
  }

  /** What {@link #queueCommand} answers: null for no source that offers it. */
  java.util.function.BiFunction<
          String,
          dev.caldera.framework.loop.QueueLifecycle.Command,
          dev.caldera.framework.loop.QueueLifecycle.Outcome>
      queues;

  @Override
  public Optional<dev.caldera.framework.loop.QueueLifecycle.Outcome> queueCommand(
      String queue, dev.caldera.framework.loop.QueueLifecycle.Command command) {
    return queues == null ? Optional.empty() : Optional.of(queues.apply(queue, command));
  }

  /** What {@link #exportScenario} answers: null for no exporting source, else the exporter. */
  java.util.function.Function<ClusterExport.Request, String> exporter;

  @Override
  public Optional<String> exportScenario(ClusterExport.Request request) {
    return exporter == null ? Optional.empty() : Optional.of(exporter.apply(request));
  }

  @Override
  public List<PluginInfo> plugins() {
    return List.of(
        new PluginInfo("capacity", null, null, "MISSING", 0, true),
        new PluginInfo("gang", "caldera-plugin-gang", "1.0.0", "ACTIVE", 3, true));
  }

  @Override
  public List<BundleInfo> bundles() {
    return List.of(
        new BundleInfo(7, "caldera-plugin-gang", "1.0.0", "ACTIVE", "file:/deploy/gang.jar", null));
  }

  @Override
  public BundleInfo install(String fileName, byte[] jar) throws AdminException {
    if (JarCheck.problem(jar).isPresent()) {
      throw new AdminException(400, "not installed: " + JarCheck.problem(jar).get());
    }
    installed.add(fileName);
    return new BundleInfo(8, "x", "1.0.0", "ACTIVE", "file:/deploy/" + fileName, null);
  }

  @Override
  public BundleInfo uninstall(String name) throws AdminException {
    uninstallsAsked.add(name);
    if (!name.equals("caldera-plugin-gang")) {
      throw new AdminException(404, "no bundle named " + name);
    }
    uninstalled.add(name);
    return new BundleInfo(7, name, "1.0.0", "UNINSTALLED", "file:/deploy/gang.jar", null);
  }

  @Override
  public List<MetricsSource> metricsSources() {
    return metricsSources;
  }
}
