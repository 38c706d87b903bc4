package dev.caldera.runtime;

import dev.caldera.api.GoDuration;
import dev.caldera.runtime.run.KubeRunOptions;
import dev.caldera.runtime.run.KubeconfigCheck;
import dev.caldera.runtime.run.OsgiLauncher;
import dev.caldera.runtime.run.RunOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code caldera run}: the scheduler itself. Starts Apache Felix with the distribution's bundles,
 * hot-deploys plugin bundles from {@code deploy/}, watches the conf file and the policies
 * directory, and schedules the embedded cluster every period until stopped (SIGTERM finishes the
 * session in flight and exits 0).
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = {
      "Run the scheduler in Apache Felix on the embedded cluster, with hot-swappable plugin"
          + " bundles, a watched conf and policies directory, and an admin HTTP server.",
      "SIGTERM (or Ctrl-C) lets the session in flight finish and exits 0."
    })
final class RunCommand implements Callable<Integer> {

  @ParentCommand CalderaCommand parent;

  @Spec CommandSpec spec;

  @Option(
      names = "--conf",
      paramLabel = "FILE",
      description = "Scheduler conf, watched for changes (default: conf/scheduler.conf).")
  Path conf;

  @Option(
      names = "--policies",
      paramLabel = "DIR",
      description = "Directory of *.policy files, watched (default: policies/).")
  Path policies;

  @Option(
      names = "--cluster",
      paramLabel = "DIR",
      description = "Manifests to seed the embedded cluster from (default: conf/demo/).")
  Path cluster;

  @Option(
      names = "--no-workload",
      negatable = false,
      description = "Do not generate training jobs and inference services over time.")
  boolean noWorkload;

  @Option(
      names = "--deploy",
      paramLabel = "DIR",
      description = "Watched directory of plugin bundles (default: deploy/).")
  Path deploy;

  @Option(
      names = "--schedule-period",
      paramLabel = "DURATION",
      defaultValue = "1s",
      converter = GoDurationConverter.class,
      description = "Time from the end of a session to the start of the next (default: 1s).")
  Duration schedulePeriod;

  @Option(
      names = "--session-debounce",
      paramLabel = "DURATION|off",
      defaultValue = "5ms",
      description = {
        "How long after work arrives (a pod, pod group or queue added or changed, a pod deleted"
            + " or finished, a node added or changed) a session starts, gathering a burst into one"
            + " session; sessions still start at the latest every --schedule-period. 'off': every"
            + " period only, as Volcano (default: ${DEFAULT-VALUE})."
      })
  String sessionDebounce;

  @Option(
      names = "--admin-address",
      paramLabel = "HOST:PORT",
      defaultValue = "127.0.0.1:8080",
      description =
          "Admin HTTP server: /healthz, /readyz, /metrics, /api/... (default: ${DEFAULT-VALUE});"
              + " 'off' for none.")
  String adminAddress;

  @Option(
      names = "--admin-token",
      paramLabel = "TOKEN",
      description =
          "Bearer token that enables POST /api/bundles and DELETE /api/bundles/NAME"
              + " (default: $CALDERA_ADMIN_TOKEN; without one they are refused).")
  String adminToken;

  @Option(
      names = "--probe-address",
      paramLabel = "HOST:PORT",
      description =
          "Listener of /healthz and /readyz alone, with threads of its own, so clients of the"
              + " admin API cannot delay the probes (default: the admin address's host, its port"
              + " + 1, e.g. 127.0.0.1:8081; off with --admin-address off); 'off' for none. The"
              + " probes stay on the admin address too.")
  String probeAddress;

  @Option(
      names = "--admin-allowed-hosts",
      paramLabel = "NAMES",
      split = ",",
      description =
          "Host names the admin server answers for, beyond IP addresses, localhost and this"
              + " host's names (against DNS rebinding: other Host headers get 421); '*' for any.")
  List<String> allowedHosts;

  @Option(names = "--shell", description = "Start the Gogo shell on this terminal.")
  boolean shell;

  @Option(
      names = "--duration",
      paramLabel = "DURATION",
      converter = GoDurationConverter.class,
      description = "Stop after this long (e.g. 30s), as on SIGTERM.")
  Duration duration;

  @Option(
      names = "--status-interval",
      paramLabel = "DURATION",
      converter = GoDurationConverter.class,
      description = "Print a status line this often (default: 5s; 0 for none, and with --shell).")
  Duration statusInterval;

  @Option(
      names = "--log",
      paramLabel = "FILE",
      description = "Log file: events and one line per session (default: log/caldera.log).")
  Path log;

  @Option(
      names = "--log-format",
      paramLabel = "FORMAT",
      defaultValue = "text",
      description =
          "text (default): one line per event, ISO-8601 UTC time, level, logger, message; json:"
              + " one JSON object per line (time, level, logger, message). Console and file.")
  String logFormat;

  @Option(
      names = "--log-max-bytes",
      paramLabel = "BYTES",
      defaultValue = "10485760",
      description = "Rotate the log file at this size (default: 10 MiB).")
  long logMaxBytes;

  @Option(
      names = "--log-keep",
      paramLabel = "N",
      defaultValue = "5",
      description = "Rotated log files kept: FILE.1 (newest) to FILE.N (default: 5).")
  int logKeep;

  @Option(names = "--verbose", description = "Also print one line per session.")
  boolean verbose;

  // ---- A real cluster (issue 7, the kube bundle) ------------------------------------------------

  @Option(
      names = "--kubeconfig",
      paramLabel = "FILE",
      description =
          "Schedule the Kubernetes cluster of this kubeconfig instead of the embedded one.")
  Path kubeconfig;

  @Option(
      names = "--in-cluster",
      description =
          "Schedule the cluster this runs in (its service account) instead of the embedded one.")
  boolean inCluster;

  @Option(
      names = "--leader-elect",
      description =
          "With a cluster: schedule only while holding the Lease caldera-scheduler"
              + " (namespace $POD_NAMESPACE, else the connection's).")
  boolean leaderElect;

  @Option(
      names = "--scheduler-name",
      paramLabel = "NAME",
      description =
          "With a cluster: schedule the pods of this spec.schedulerName (repeatable; default:"
              + " volcano).")
  List<String> schedulerNames;

  @Option(
      names = "--kube-api-qps",
      paramLabel = "QPS",
      defaultValue = "2000",
      description =
          "With a cluster: requests per second to the API server (Volcano's flag; default:"
              + " ${DEFAULT-VALUE}).")
  double kubeApiQps;

  @Option(
      names = "--kube-api-burst",
      paramLabel = "N",
      defaultValue = "2000",
      description =
          "With a cluster: requests sent at once above that rate (Volcano's flag; default:"
              + " ${DEFAULT-VALUE}).")
  int kubeApiBurst;

  @Option(
      names = "--kube-write-concurrency",
      paramLabel = "N",
      defaultValue = "64",
      description =
          "With a cluster: binds, evictions, status writes and events in flight at once"
              + " (default: ${DEFAULT-VALUE}).")
  int kubeWriteConcurrency;

  @Option(
      names = "--kube-websocket-watches",
      description =
          "With a cluster: watch over a WebSocket per kind (an HTTP/1.1 connection each), for a"
              + " server or proxy that does not stream HTTP watches. Default: HTTP watches on the"
              + " client's one HTTP/2 connection, as client-go.")
  boolean kubeWebsocketWatches;

  /** One clear error for a log option out of range. */
  private void checkLogOptions() {
    if (!logFormat.equalsIgnoreCase("text") && !logFormat.equalsIgnoreCase("json")) {
      throw new ParameterException(
          spec.commandLine(), "--log-format: expected text or json, got \"" + logFormat + "\"");
    }
    if (logMaxBytes < 1024) {
      throw new ParameterException(
          spec.commandLine(), "--log-max-bytes: expected at least 1024, got " + logMaxBytes);
    }
    if (logKeep < 0) {
      throw new ParameterException(
          spec.commandLine(), "--log-keep: expected 0 or more, got " + logKeep);
    }
  }

  /** The kube bundle's settings, or null for the embedded cluster. */
  private KubeRunOptions kubeOptions() {
    boolean kube = kubeconfig != null || inCluster;
    if (!kube) {
      if (leaderElect || schedulerNames != null) {
        throw new ParameterException(
            spec.commandLine(),
            "--leader-elect and --scheduler-name need --kubeconfig or --in-cluster");
      }
      return null;
    }
    if (kubeconfig != null && inCluster) {
      throw new ParameterException(
          spec.commandLine(), "--kubeconfig and --in-cluster exclude each other");
    }
    if (kubeconfig != null && !Files.isRegularFile(kubeconfig)) {
      throw new ParameterException(spec.commandLine(), "No such file: " + kubeconfig);
    }
    String kubeconfigProblem = kubeconfig == null ? null : KubeconfigCheck.problem(kubeconfig);
    if (kubeconfigProblem != null) {
      throw new ParameterException(spec.commandLine(), "--kubeconfig " + kubeconfigProblem);
    }
    if (!(kubeApiQps > 0) || Double.isInfinite(kubeApiQps)) {
      throw new ParameterException(
          spec.commandLine(), "--kube-api-qps: expected a positive number, got " + kubeApiQps);
    }
    if (kubeApiBurst < 1) {
      throw new ParameterException(
          spec.commandLine(), "--kube-api-burst: expected at least 1, got " + kubeApiBurst);
    }
    if (kubeWriteConcurrency < 1) {
      throw new ParameterException(
          spec.commandLine(),
          "--kube-write-concurrency: expected at least 1, got " + kubeWriteConcurrency);
    }
    return new KubeRunOptions(
        kubeconfig,
        schedulerNames == null || schedulerNames.isEmpty() ? List.of("volcano") : schedulerNames,
        leaderElect,
        kubeApiQps,
        kubeApiBurst,
        kubeWriteConcurrency,
        kubeWebsocketWatches);
  }

  // -------------------------------------------------------------------------------------------------

  @Override
  public Integer call() throws IOException, InterruptedException {
    checkLogOptions();
    Path home = home();
    Path bundles = home.resolve("bundles");
    if (!Files.isDirectory(bundles)) {
      throw new ParameterException(
          spec.commandLine(), "No bundles/ directory in " + home + " (run from the distribution)");
    }
    KubeRunOptions kube = kubeOptions();
    Path clusterDir = cluster != null ? cluster : home.resolve("conf/demo");
    if (kube == null && !Files.isDirectory(clusterDir)) {
      throw new ParameterException(spec.commandLine(), "No such directory: " + clusterDir);
    }
    Path deployDir = deploy != null ? deploy : home.resolve("deploy");
    Files.createDirectories(deployDir);
    Path confFile = conf != null ? conf : home.resolve("conf/scheduler.conf");
    if (!Files.isRegularFile(confFile)) {
      parent
          .err()
          .println("warning: " + confFile + " does not exist: scheduling holds until it does");
    }
    if (schedulePeriod.isNegative() || schedulePeriod.isZero()) {
      throw new ParameterException(spec.commandLine(), "--schedule-period must be positive");
    }
    Duration debounce = debounce(sessionDebounce);
    String token = adminToken != null ? adminToken : System.getenv("CALDERA_ADMIN_TOKEN");
    // A Secret written with echo ends in a line break: no header could carry it.
    token = token == null ? null : token.strip();
    if (token != null && !token.isEmpty()) {
      String problem = tokenProblem(token);
      if (problem != null) {
        throw new ParameterException(
            spec.commandLine(),
            (adminToken != null ? "--admin-token" : "CALDERA_ADMIN_TOKEN") + ": " + problem);
      }
    }
    InetSocketAddress admin = address("--admin-address", adminAddress);
    InetSocketAddress probes =
        probeAddress != null
            ? address("--probe-address", probeAddress)
            : admin == null
                ? null
                : InetSocketAddress.createUnresolved(
                    admin.getHostString(),
                    admin.getPort() == 0 ? 0 : Math.min(65535, admin.getPort() + 1));
    RunOptions options =
        new RunOptions(
            home,
            confFile,
            policies != null ? policies : home.resolve("policies"),
            clusterDir,
            !noWorkload,
            deployDir,
            schedulePeriod,
            debounce,
            admin,
            token == null || token.isBlank() ? null : token,
            probes,
            allowedHosts == null ? List.of() : List.copyOf(allowedHosts),
            shell,
            duration,
            statusInterval != null
                ? statusInterval
                : (shell ? Duration.ZERO : Duration.ofSeconds(5)),
            log != null ? log : home.resolve("log/caldera.log"),
            logFormat,
            logMaxBytes,
            logKeep,
            verbose);
    return new OsgiLauncher(options, parent.out(), parent.err()).kube(kube).run();
  }

  /** {@code --session-debounce}: a duration shorter than the period, or null for {@code off}. */
  private Duration debounce(String text) {
    if (text.equalsIgnoreCase("off")) {
      return null;
    }
    Duration d;
    try {
      d = GoDuration.parse(text);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(
          spec.commandLine(),
          "--session-debounce: expected a duration (e.g. 20ms) or off, got " + text);
    }
    if (d.isNegative() || d.compareTo(schedulePeriod) >= 0) {
      throw new ParameterException(
          spec.commandLine(),
          "--session-debounce: expected 0 or more and less than --schedule-period ("
              + schedulePeriod.toMillis()
              + " ms), got "
              + text);
    }
    return d;
  }

  /** The distribution: {@code -Dcaldera.home} (set by bin/caldera), else the working directory. */
  static Path home() {
    String h = System.getProperty("caldera.home");
    return Path.of(h == null || h.isBlank() ? "." : h).toAbsolutePath().normalize();
  }

  /**
   * Why no {@code Authorization} header can carry {@code token}, or null: a header is visible ASCII
   * (RFC 7230); the admin server would refuse it too, and every request would be unauthorized.
   */
  static String tokenProblem(String token) {
    for (int i = 0; i < token.length(); i++) {
      char c = token.charAt(i);
      if (c < 0x21 || c > 0x7e) {
        return String.format(
            "character %d (U+%04X) is not visible ASCII, so no Authorization header can carry the"
                + " token; use letters, digits and ASCII punctuation (e.g. openssl rand -hex 32)",
            i + 1, (int) c);
      }
    }
    return null;
  }

  private InetSocketAddress address(String option, String text) {
    if (text.equalsIgnoreCase("off")) {
      return null;
    }
    int colon = text.lastIndexOf(':');
    try {
      if (colon < 0) {
        throw new NumberFormatException();
      }
      int port = Integer.parseInt(text.substring(colon + 1));
      if (port < 0 || port > 65535) {
        throw new NumberFormatException();
      }
      return InetSocketAddress.createUnresolved(text.substring(0, colon), port);
    } catch (NumberFormatException e) {
      throw new ParameterException(
          spec.commandLine(), option + ": expected HOST:PORT or off, got " + text);
    }
  }

  /** Reads Go-style durations: {@code 1s}, {@code 500ms}, {@code 2m30s}. */
  static final class GoDurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      Duration d = GoDuration.parse(value);
      if (d.isNegative()) {
        throw new IllegalArgumentException("must not be negative: " + value);
      }
      return d;
    }
  }
}
