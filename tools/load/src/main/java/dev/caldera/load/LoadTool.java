package dev.caldera.load;

import dev.caldera.load.LoadObjects.PodShape;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.logging.Level;
import java.util.logging.Logger;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code caldera load}: scheduler latency on a real API server. Creates fake nodes (or uses a
 * labelled pool), a namespace of its own and, for gangs, a Volcano queue; submits gangs or plain
 * pods at a steady rate (or a backlog, then launches the scheduler); watches when each pod is
 * bound; reports throughput, creation-to-bound latency and the scheduler's CPU; and deletes what it
 * created, also on Ctrl-C.
 *
 * <p>The {@code caldera} command line runs it from {@code lib/load/} through a class loader of its
 * own ({@link #run}); {@link #main} runs it directly (IDE, tests). Exit codes: 0 the run ended and
 * was reported, 1 it could not run (the API server refused, the CRDs are missing, ...), 2 a usage
 * error (one line naming the option).
 */
@Command(
    name = "caldera load",
    sortOptions = false,
    usageHelpWidth = 100,
    description = {
      "Measure a scheduler's latency on a real API server: create fake nodes (or use labelled"
          + " ones), submit gangs or plain pods at a steady rate (or a backlog, then launch the"
          + " scheduler), report throughput, creation-to-bound latency and the scheduler's CPU,"
          + " and delete everything created, also on Ctrl-C.",
      ""
    })
public final class LoadTool implements Callable<Integer> {

  /** fabric8 warns once per process that Volcano's v1beta1 is an "unstable version". */
  private static final Logger VERSION_USAGE =
      Logger.getLogger("io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils");

  static {
    VERSION_USAGE.setLevel(Level.SEVERE);
  }

  private final PrintStream out;
  private final PrintStream err;

  @Spec CommandSpec spec;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Print this help and exit.")
  boolean help;

  @Option(
      names = "--kubeconfig",
      paramLabel = "FILE",
      required = true,
      description = "The API server to load, and the credentials (required; no default).")
  Path kubeconfig;

  @Option(
      names = "--context",
      paramLabel = "NAME",
      description = "The kubeconfig's context to use (default: its current context).")
  String context;

  @Option(
      names = "--nodes",
      paramLabel = "N",
      defaultValue = "200",
      description =
          "Fake nodes to create, labelled caldera-load=<run id>, each with 32 CPUs, 128Gi and 110"
              + " pods, Ready (default: ${DEFAULT-VALUE}).")
  int nodes;

  @Option(
      names = "--node-selector",
      paramLabel = "KEY=VALUE",
      description =
          "Use the existing nodes with this label instead, and create none (default: none, fake"
              + " nodes are created).")
  String nodeSelector;

  @Option(
      names = "--queue",
      paramLabel = "NAME",
      defaultValue = "default",
      description =
          "The Volcano queue of the gangs; created if missing and then deleted at the end (a"
              + " queue that was there is left alone) (default: ${DEFAULT-VALUE}).")
  String queue;

  @Option(
      names = "--scheduler-name",
      paramLabel = "NAME",
      defaultValue = "volcano",
      description =
          "The pods' schedulerName: volcano for Caldera or Volcano, default-scheduler for"
              + " kube-scheduler (default: ${DEFAULT-VALUE}).")
  String schedulerName;

  @Option(
      names = "--rate",
      paramLabel = "PODS_PER_SECOND",
      defaultValue = "100",
      description = "Pods created per second, evenly spaced (default: ${DEFAULT-VALUE}).")
  String rate;

  @Option(
      names = "--duration",
      paramLabel = "DURATION",
      defaultValue = "60s",
      description =
          "How long the stream lasts, e.g. 60s, 1.5s, 500ms, 2m (default: ${DEFAULT-VALUE}).")
  String duration;

  @Option(
      names = "--gang-size",
      paramLabel = "N",
      defaultValue = "10",
      description =
          "Pods per gang: a PodGroup with minMember N, its pods annotated"
              + " scheduling.k8s.io/group-name; 0 submits plain pods (default: ${DEFAULT-VALUE}).")
  int gangSize;

  @Option(
      names = "--gang-arrival",
      paramLabel = "together|spread",
      defaultValue = "together",
      description =
          "together: a gang's pods are created at once, at the gang's turn in the stream, as a job"
              + " controller creates a job's pods (Volcano's creates them in parallel); spread: one"
              + " pod after the other at the rate, so a gang is complete only when its last pod"
              + " is due (default: ${DEFAULT-VALUE}).")
  String gangArrival;

  @Option(
      names = "--plain",
      description = "Plain pods, no pod groups: the same as --gang-size 0 (default: off).")
  boolean plain;

  @Option(
      names = "--pod-cpu",
      paramLabel = "QUANTITY",
      defaultValue = "100m",
      description = "Each pod's CPU request (default: ${DEFAULT-VALUE}).")
  String podCpu;

  @Option(
      names = "--pod-memory",
      paramLabel = "QUANTITY",
      defaultValue = "64Mi",
      description = "Each pod's memory request (default: ${DEFAULT-VALUE}).")
  String podMemory;

  @Option(
      names = "--backlog",
      paramLabel = "N",
      defaultValue = "0",
      description =
          "Start-up mode: create N pending pods (in gangs of --gang-size) as fast as the API"
              + " server takes them, wait --settle, then start the --launch command and measure"
              + " from its start; 0 streams at --rate instead (default: ${DEFAULT-VALUE}).")
  int backlog;

  @Option(
      names = "--settle",
      paramLabel = "DURATION",
      defaultValue = "3s",
      description =
          "The pause between the backlog and the launch, or between the launch and the stream"
              + " (default: ${DEFAULT-VALUE}).")
  String settle;

  @Option(
      names = "--launch",
      paramLabel = "COMMAND",
      description =
          "Start the scheduler with this shell command (sh -c), its output to a temporary file;"
              + " it and its children are stopped at the end, and its CPU is reported (default:"
              + " none, the scheduler runs already).")
  String launch;

  @Option(
      names = "--scheduler-pid",
      paramLabel = "PID",
      description =
          "The process id of the running scheduler, to report its CPU (default: none, CPU not"
              + " reported unless --launch).")
  Long schedulerPid;

  @Option(
      names = "--drain",
      paramLabel = "DURATION",
      defaultValue = "30s",
      description =
          "How long to wait after the stream (or after the launch, with --backlog) for pods still"
              + " unbound (default: ${DEFAULT-VALUE}).")
  String drain;

  @Option(
      names = "--workers",
      paramLabel = "N",
      defaultValue = "16",
      description = "Threads sending the create requests (default: ${DEFAULT-VALUE}).")
  int workers;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FORMAT",
      defaultValue = "table",
      description = "The report on stdout: table or json (default: ${DEFAULT-VALUE}).")
  String output;

  LoadTool(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /** Runs the tool and exits with its code. */
  public static void main(String[] args) {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(System.err, true, StandardCharsets.UTF_8);
    System.exit(run(args, out, err));
  }

  /**
   * Runs the tool with these arguments, the report to {@code out}, progress and errors to {@code
   * err}.
   *
   * @return the exit code: 0 reported, 1 could not run, 2 usage error
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    return commandLine(out, err).execute(args);
  }

  static CommandLine commandLine(PrintStream out, PrintStream err) {
    CommandLine cl = new CommandLine(new LoadTool(out, err));
    cl.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
    cl.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
    cl.setParameterExceptionHandler(
        (ex, args) -> {
          err.println("caldera load: " + ex.getMessage());
          return 2;
        });
    cl.setExecutionExceptionHandler(
        (ex, commandLine, parseResult) -> {
          err.println("caldera load: " + Errors.describe(ex));
          return 1;
        });
    return cl;
  }

  /**
   * The settings that {@code args} give, validated as a run validates them.
   *
   * @throws ParameterException for a usage error, with the message the tool prints
   */
  static LoadSettings settings(String... args) {
    CommandLine cl = commandLine(System.out, System.err);
    cl.parseArgs(args);
    return ((LoadTool) cl.getCommand()).settings();
  }

  @Override
  public Integer call() throws Exception {
    LoadSettings s = settings();
    MeasuredScheduler scheduler =
        s.launch() != null
            ? new LaunchedScheduler(s.launch())
            : new RunningScheduler(s.schedulerPid(), s.schedulerName());
    try (KubernetesClient client = client(s)) {
      return execute(s, client, scheduler, randomRunId(), out, err);
    }
  }

  /**
   * Runs {@code s} on {@code client} with {@code scheduler}, prints the report (or one error line),
   * and cleans up, on Ctrl-C too.
   *
   * @return the exit code: 0 reported, 1 failed
   */
  static int execute(
      LoadSettings s,
      KubernetesClient client,
      MeasuredScheduler scheduler,
      String runId,
      PrintStream out,
      PrintStream err) {
    LoadRun run = new LoadRun(s, client, scheduler, err, runId);
    Thread hook =
        new Thread(
            () -> {
              run.stop();
              scheduler.stop();
              List<String> problems = run.cleanup();
              err.println("caldera load: stopped; " + cleanupSummary(problems));
              problems.forEach(p -> err.println("caldera load: " + p));
            },
            "caldera-load-cleanup");
    Runtime.getRuntime().addShutdownHook(hook);
    LoadReport report = null;
    String failure = null;
    try {
      report = run.run();
    } catch (LoadException e) {
      failure = e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      failure = "interrupted";
    } catch (RuntimeException e) {
      failure = Errors.describe(e);
    } finally {
      scheduler.stop();
    }
    List<String> problems = run.cleanup();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // The hook runs or has run; it printed the cleanup.
    }
    if (report == null) {
      err.println("caldera load: " + failure);
      problems.forEach(p -> err.println("caldera load: " + p));
      return 1;
    }
    report = report.withCleanupProblems(problems);
    if (s.json()) {
      report.printJson(out);
    } else {
      report.printTable(out);
    }
    return 0;
  }

  private static String cleanupSummary(List<String> problems) {
    return problems.isEmpty()
        ? "everything the run created was deleted"
        : "some of what the run created could not be deleted:";
  }

  /** The options as settings; a wrong value is a usage error naming its option. */
  LoadSettings settings() {
    double podsPerSecond = positiveNumber("--rate", rate, "a number of pods per second");
    Duration streamFor = duration("--duration", duration, true);
    Duration settleFor = duration("--settle", settle, false);
    Duration drainFor = duration("--drain", drain, false);
    if (plain && matched("--gang-size") && gangSize != 0) {
      throw usage("--plain and --gang-size " + gangSize + " contradict each other");
    }
    int gang = plain ? 0 : gangSize;
    if (gang < 0) {
      throw usage("--gang-size: expected 0 (plain pods) or more, got " + gangSize);
    }
    if (nodes < 1) {
      throw usage("--nodes: expected 1 or more, got " + nodes);
    }
    if (workers < 1) {
      throw usage("--workers: expected 1 or more, got " + workers);
    }
    if (backlog < 0) {
      throw usage("--backlog: expected 0 (a stream) or more pods, got " + backlog);
    }
    Map<String, String> selector = nodeSelector == null ? null : selector(nodeSelector);
    if (nodeSelector != null && matched("--nodes")) {
      throw usage(
          "--nodes and --node-selector contradict each other: with a selector no node is"
              + " created");
    }
    if (launch != null && launch.isBlank()) {
      throw usage("--launch: expected a shell command, got an empty one");
    }
    if (launch != null && schedulerPid != null) {
      throw usage("--launch and --scheduler-pid contradict each other: give one");
    }
    if (schedulerPid != null && ProcessHandle.of(schedulerPid).isEmpty()) {
      throw usage("--scheduler-pid: no process " + schedulerPid + " is running");
    }
    if (backlog > 0) {
      if (launch == null) {
        throw usage("--backlog needs --launch COMMAND: the scheduler starts after the backlog");
      }
      if (matched("--rate") || matched("--duration")) {
        throw usage("--backlog takes no --rate or --duration: the backlog is created at once");
      }
      if (gang > 0 && backlog % gang != 0) {
        throw usage("--backlog: expected a multiple of --gang-size (" + gang + "), got " + backlog);
      }
    }
    if (schedulerName.isBlank()) {
      throw usage("--scheduler-name: expected a name, got an empty one");
    }
    if (queue.isBlank()) {
      throw usage("--queue: expected a name, got an empty one");
    }
    boolean gangPodsTogether =
        switch (gangArrival.toLowerCase(java.util.Locale.ROOT)) {
          case "together" -> true;
          case "spread" -> false;
          default ->
              throw usage("--gang-arrival: expected together or spread, got '" + gangArrival + "'");
        };
    boolean json =
        switch (output.toLowerCase(java.util.Locale.ROOT)) {
          case "table" -> false;
          case "json" -> true;
          default -> throw usage("--output: expected table or json, got '" + output + "'");
        };
    return new LoadSettings(
        kubeconfig,
        context,
        nodes,
        selector,
        queue,
        schedulerName,
        podsPerSecond,
        streamFor,
        gang,
        gangPodsTogether,
        new PodShape(quantity("--pod-cpu", podCpu), quantity("--pod-memory", podMemory)),
        backlog,
        settleFor,
        launch,
        schedulerPid,
        drainFor,
        workers,
        json);
  }

  /** A client for the kubeconfig; an unreadable or malformed one is a usage error. */
  KubernetesClient client(LoadSettings s) {
    Path file = s.kubeconfig();
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      throw usage(
          "--kubeconfig: cannot read "
              + file
              + (Files.exists(file) ? "" : " (no such file)")
              + ": expected a kubeconfig file");
    }
    Config config;
    try {
      config = Config.fromKubeconfig(s.context(), file.toFile());
    } catch (RuntimeException e) {
      Throwable root = e;
      while (root.getCause() != null) {
        root = root.getCause();
      }
      throw usage("--kubeconfig: " + file + " is not a kubeconfig: " + Errors.describe(root));
    }
    if (config.getMasterUrl() == null || config.getCurrentContext() == null) {
      throw usage(
          "--kubeconfig: "
              + file
              + " names no "
              + (s.context() == null ? "current context" : "context " + s.context())
              + ": expected a kubeconfig with a cluster and a context");
    }
    if (s.context() != null && !s.context().equals(config.getCurrentContext().getName())) {
      throw usage("--context: " + file + " has no context " + s.context());
    }
    config.setUserAgent("caldera-load");
    // A few retries (0.1, 0.2, 0.4 s) carry a create over a busy API server's 429 or 503; fabric8's
    // ten took 19 s to say that an API server cannot be reached.
    config.setRequestRetryBackoffLimit(3);
    return new KubernetesClientBuilder()
        .withConfig(config)
        .withHttpClientFactory(new JdkHttpClientFactory())
        .build();
  }

  private boolean matched(String option) {
    return spec.commandLine().getParseResult() != null
        && spec.commandLine().getParseResult().hasMatchedOption(option);
  }

  private double positiveNumber(String option, String text, String what) {
    double v;
    try {
      v = Double.parseDouble(text.trim());
    } catch (NumberFormatException e) {
      v = Double.NaN;
    }
    if (!(v > 0) || Double.isInfinite(v)) {
      throw usage(option + ": expected " + what + " greater than 0, got '" + text + "'");
    }
    return v;
  }

  private Duration duration(String option, String text, boolean positive) {
    Duration d;
    try {
      d = Durations.parse(text);
    } catch (IllegalArgumentException e) {
      d = null;
    }
    if (d == null || positive && d.isZero()) {
      throw usage(
          option
              + ": expected a duration"
              + (positive ? " greater than 0" : "")
              + " such as 60s, 1.5s, 500ms or 2m, got '"
              + text
              + "'");
    }
    return d;
  }

  private Quantity quantity(String option, String text) {
    try {
      Quantity q = new Quantity(text.trim());
      if (Quantity.getAmountInBytes(q).compareTo(BigDecimal.ZERO) < 0) {
        throw new IllegalArgumentException("negative");
      }
      return q;
    } catch (RuntimeException e) {
      throw usage(
          option
              + ": expected a quantity of 0 or more such as 100m, 2 or 64Mi, got '"
              + text
              + "'");
    }
  }

  private Map<String, String> selector(String text) {
    int eq = text.indexOf('=');
    if (eq <= 0 || text.indexOf('=', eq + 1) >= 0) {
      throw usage("--node-selector: expected KEY=VALUE, got '" + text + "'");
    }
    return Map.of(text.substring(0, eq).trim(), text.substring(eq + 1).trim());
  }

  /** A usage error: one line (a library's message may hold several). */
  private ParameterException usage(String message) {
    return new ParameterException(
        spec.commandLine(), message.lines().findFirst().orElse("").strip());
  }

  /** Six lowercase letters and digits: the run's namespace is caldera-load-{id}. */
  static String randomRunId() {
    String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
    SecureRandom random = new SecureRandom();
    StringBuilder sb = new StringBuilder(6);
    for (int i = 0; i < 6; i++) {
      sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return sb.toString();
  }
}
