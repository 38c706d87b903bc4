package dev.caldera.runtime;

import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.PluginRegistry;
import dev.caldera.framework.Scheduler;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.conf.ConfException;
import dev.caldera.framework.conf.PluginOption;
import dev.caldera.framework.conf.SchedulerConf;
import dev.caldera.framework.conf.Tier;
import dev.caldera.runtime.bench.BenchProgress;
import dev.caldera.runtime.bench.BenchReport;
import dev.caldera.runtime.bench.BenchResult;
import dev.caldera.runtime.bench.BenchRunner;
import dev.caldera.runtime.bench.PlacementCounter;
import dev.caldera.runtime.bench.SessionMeasurement;
import dev.caldera.runtime.bench.SessionTarget;
import dev.caldera.runtime.bench.SyntheticCluster;
import dev.caldera.runtime.bench.Workload;
import dev.caldera.sim.EmbeddedCluster;
import dev.caldera.sim.Scenario;
import dev.caldera.sim.ScenarioException;
import dev.caldera.sim.ScenarioLoader;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code caldera bench}: times scheduling sessions on the synthetic cluster of {@code
 * bench-workload.md}, or on a scenario file.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
      "Time scheduling sessions on a synthetic cluster (or a scenario file).",
      "Nodes have 32 CPUs, 128Gi and 110 pods; every job is a gang of --tasks-per-job pods of"
          + " 1 CPU and 2Gi, spread round-robin over --queues queues."
    })
final class BenchCommand implements Callable<Integer> {

  /** The conf of the synthetic workload, exactly as {@code bench-workload.md} gives it. */
  static final String BENCH_CONF =
      """
      actions: "enqueue, allocate, backfill"
      tiers:
      - plugins: [{name: priority}, {name: gang}, {name: conformance}]
      - plugins: [{name: drf}, {name: predicates}, {name: proportion}, {name: nodeorder}, {name: binpack}]
      """;

  /** The preset sizes. */
  enum Size {
    SMALL(1_000, 10_000),
    MEDIUM(5_000, 50_000),
    LARGE(10_000, 100_000);

    final int nodes;
    final int pods;

    Size(int nodes, int pods) {
      this.nodes = nodes;
      this.pods = pods;
    }
  }

  /** When the progress line is printed. */
  enum ProgressMode {
    AUTO,
    ALWAYS,
    NEVER
  }

  /** Output formats. */
  enum Format {
    TABLE,
    JSON
  }

  @ParentCommand CalderaCommand parent;

  @Spec CommandSpec spec;

  @Option(
      names = "--size",
      paramLabel = "SIZE",
      description =
          "Preset: small (1,000 nodes, 10,000 pods), medium (5,000 / 50,000) or large"
              + " (10,000 / 100,000). --nodes and --pods override it. Default: small.")
  Size size;

  @Option(names = "--nodes", paramLabel = "N", description = "Number of nodes.")
  Integer nodes;

  @Option(names = "--pods", paramLabel = "P", description = "Number of pending pods.")
  Integer pods;

  @Option(
      names = "--queues",
      paramLabel = "Q",
      defaultValue = "10",
      description = "Number of queues (default: ${DEFAULT-VALUE}).")
  int queues;

  @Option(
      names = "--tasks-per-job",
      paramLabel = "T",
      defaultValue = "10",
      description = "Pods per job, all needed at once (default: ${DEFAULT-VALUE}).")
  int tasksPerJob;

  @Option(
      names = "--sessions",
      paramLabel = "K",
      description =
          "Measured sessions, back to back on the same cluster (default: 1, or the scenario's"
              + " sessions).")
  Integer sessions;

  @Option(
      names = "--warmup",
      paramLabel = "W",
      defaultValue = "0",
      description = "Sessions run first on a copy of the cluster, not measured (default: 0).")
  int warmup;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FORMAT",
      defaultValue = "table",
      description = "table or json (default: ${DEFAULT-VALUE}).")
  Format output;

  @Option(
      names = "--progress",
      paramLabel = "WHEN",
      defaultValue = "auto",
      description =
          "While a session runs, print pods placed and pods/s so far to stderr: auto (when"
              + " caldera runs on a terminal), always or never (default: ${DEFAULT-VALUE}). The"
              + " report on stdout is the same either way.")
  ProgressMode progressMode;

  @Option(
      names = "--progress-interval",
      paramLabel = "MILLIS",
      defaultValue = "2000",
      description = "Milliseconds between progress lines (default: ${DEFAULT-VALUE}).")
  long progressIntervalMillis;

  @Option(
      names = "--scenario",
      paramLabel = "FILE",
      description = "Time this scenario file instead of the synthetic cluster.")
  Path scenario;

  @Override
  public Integer call() {
    if (warmup < 0) {
      throw usage("--warmup must be 0 or more, got " + warmup);
    }
    if (progressIntervalMillis < 1) {
      throw usage("--progress-interval must be 1 or more, got " + progressIntervalMillis);
    }
    if (sessions != null && sessions < 1) {
      throw usage("--sessions must be 1 or more, got " + sessions);
    }
    return scenario != null ? benchScenario() : benchSynthetic();
  }

  private int benchSynthetic() {
    Size preset = size == null ? Size.SMALL : size;
    int n = nodes != null ? nodes : preset.nodes;
    int p = pods != null ? pods : preset.pods;
    if (n < 1) {
      throw usage("--nodes must be 1 or more, got " + n);
    }
    if (p < 0) {
      throw usage("--pods must be 0 or more, got " + p);
    }
    if (queues < 1) {
      throw usage("--queues must be 1 or more, got " + queues);
    }
    if (tasksPerJob < 1) {
      throw usage("--tasks-per-job must be 1 or more, got " + tasksPerJob);
    }
    if (p % tasksPerJob != 0) {
      throw usage("--pods (" + p + ") must be a multiple of --tasks-per-job (" + tasksPerJob + ")");
    }
    SchedulerConf conf;
    try {
      conf = SchedulerConf.parse(BENCH_CONF, "bench workload");
    } catch (ConfException e) {
      throw new IllegalStateException("the built-in bench conf is invalid", e);
    }
    PluginRegistry registry = Plugins.registry();
    if (!canRun(conf, registry, "bench workload")) {
      return 1;
    }
    int k = sessions == null ? 1 : sessions;
    Workload workload = Workload.synthetic(n, p, queues, tasksPerJob, k, warmup);
    SyntheticCluster cluster = SyntheticCluster.generate(n, p, queues, tasksPerJob);
    return run(registry, conf, workload, cluster, cluster::copy, k);
  }

  private int benchScenario() {
    List<String> synthetic = List.of("--size", "--nodes", "--pods", "--queues", "--tasks-per-job");
    for (String option : synthetic) {
      if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
        throw usage("--scenario cannot be combined with " + option);
      }
    }
    if (!Files.isRegularFile(scenario)) {
      throw usage("No such file: " + scenario);
    }
    Scenario s;
    try {
      s = ScenarioLoader.load(scenario);
    } catch (ScenarioException e) {
      parent.err().println("error: " + e.getMessage());
      return 1;
    }
    PluginRegistry registry = Plugins.registry();
    if (!canRun(s.conf(), registry, scenario.toString())) {
      return 1;
    }
    int k = sessions == null ? s.sessions() : sessions;
    Workload workload = Workload.scenario(s.name(), k, warmup);
    SessionTarget target = new ScenarioTarget(s);
    return run(registry, s.conf(), workload, target, () -> new ScenarioTarget(s), k);
  }

  private int run(
      PluginRegistry registry,
      SchedulerConf conf,
      Workload workload,
      SessionTarget target,
      Supplier<SessionTarget> warmupCopy,
      int k) {
    PrintStream out = parent.out();
    boolean table = output == Format.TABLE;
    if (table) {
      BenchReport.tableHeader(workload, out);
    }
    Consumer<SessionMeasurement> progress = table ? m -> BenchReport.tableRow(m, out) : m -> {};
    BenchResult result;
    PlacementCounter counter = new PlacementCounter();
    String carrier = showProgress() ? carrierPlugin(conf, registry) : null;
    PluginRegistry sessionRegistry =
        carrier == null ? registry : counter.watching(registry, carrier);
    try (BenchProgress live =
        new BenchProgress(parent.err(), System::nanoTime, counter, warmup, k)) {
      if (carrier != null) {
        live.printEvery(Duration.ofMillis(progressIntervalMillis));
      }
      Scheduler scheduler = new Scheduler(sessionRegistry);
      result =
          new BenchRunner(
                  snapshot -> {
                    live.sessionStarted();
                    try {
                      return scheduler.runSession(snapshot, conf);
                    } finally {
                      live.sessionEnded();
                    }
                  })
              .run(workload, target, warmupCopy, k, warmup, progress);
    } catch (ConfException e) {
      parent.err().println("error: " + e.getMessage());
      return 1;
    }
    if (table) {
      BenchReport.tableSummary(result, out);
    } else {
      BenchReport.json(result, out);
    }
    return 0;
  }

  private boolean showProgress() {
    return switch (progressMode) {
      case ALWAYS -> true;
      case NEVER -> false;
      case AUTO -> System.console() != null;
    };
  }

  /** The first plugin of the conf that sessions open: the progress counter rides along with it. */
  private static String carrierPlugin(SchedulerConf conf, PluginRegistry registry) {
    for (Tier tier : conf.tiers()) {
      for (PluginOption option : tier.plugins()) {
        if (registry.plugin(option.name()).isPresent()) {
          return option.name();
        }
      }
    }
    return null;
  }

  private boolean canRun(SchedulerConf conf, PluginRegistry registry, String source) {
    List<String> missing = conf.missing(registry);
    if (missing.isEmpty()) {
      return true;
    }
    parent.err().println("error: " + source + ": " + String.join("; ", missing));
    return false;
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /**
   * A scenario's embedded cluster, seen at the scenario's clock. Each target holds its own copy of
   * the scenario's objects.
   */
  private static final class ScenarioTarget implements SessionTarget {
    private final EmbeddedCluster cluster;
    private final Instant now;

    ScenarioTarget(Scenario s) {
      this.cluster = s.cluster();
      this.now = s.now();
    }

    @Override
    public ClusterSnapshot snapshot() {
      return cluster.snapshot(now);
    }

    @Override
    public void apply(SessionResult result) {
      cluster.apply(result);
    }
  }
}
