package dev.caldera.runtime;

import dev.caldera.framework.loop.ClusterExport;
import dev.caldera.runtime.run.KubeRunOptions;
import dev.caldera.runtime.run.KubeconfigCheck;
import dev.caldera.runtime.run.OsgiLauncher;
import dev.caldera.runtime.run.RunOptions;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code caldera snapshot}: the cluster as the scheduler sees it, written as a scenario file, to
 * replay with {@code caldera simulate} or compare under a change with {@code caldera diff}: asked
 * of a running scheduler ({@code GET /api/snapshot}), or with {@code --kubeconfig} read by the kube
 * bundle alone, in a Felix of its own without a scheduling loop.
 */
@Command(
    name = "snapshot",
    mixinStandardHelpOptions = true,
    description = {
      "Write the cluster as a running scheduler sees it as a scenario file, with the conf and"
          + " policies in force.",
      "Exit status: 0 written, 1 the scheduler could not give it, 2 usage error."
    })
final class SnapshotCommand implements Callable<Integer> {

  @ParentCommand CalderaCommand parent;

  @Spec CommandSpec spec;

  @Mixin AdminAddress admin;

  @Option(
      names = "--admin-token",
      paramLabel = "TOKEN",
      description = "The admin token (default: $CALDERA_ADMIN_TOKEN).")
  String token;

  @Option(
      names = "--drop-unread",
      description =
          "Leave out what no plugin reads: other annotations, pod status beyond phase and"
              + " conditions, containers' environment, command and probes.")
  boolean dropUnread;

  @Option(
      names = "--anonymize",
      description =
          "Replace the names of namespaces, nodes, pods, pod groups, queues, owners, claims and"
              + " volumes by made-up ones (ns-000001, node-000001, ...), consistently.")
  boolean anonymize;

  @Option(
      names = "--kubeconfig",
      paramLabel = "FILE",
      description =
          "Read the cluster directly with this kubeconfig instead of asking a running scheduler"
              + " (nothing is scheduled or written).")
  Path kubeconfig;

  @Option(
      names = "--scheduler-name",
      paramLabel = "NAME",
      description = "With --kubeconfig: the scheduler names whose pods count (default: volcano).")
  List<String> schedulerNames;

  @Option(
      names = "--kube-websocket-watches",
      description =
          "Watch over a WebSocket per kind (an HTTP/1.1 connection each), for a"
              + " server or proxy that does not stream HTTP watches. Default: HTTP watches on the"
              + " client's one HTTP/2 connection, as client-go.")
  boolean kubeWebsocketWatches;

  @Option(
      names = "--conf",
      paramLabel = "FILE",
      description =
          "With --kubeconfig: the conf the scenario carries (default: the distribution's"
              + " conf/scheduler.conf).")
  Path conf;

  @Option(
      names = "--policies",
      paramLabel = "DIR",
      description =
          "With --kubeconfig: the .policy files the scenario carries (default: the distribution's"
              + " policies/).")
  Path policies;

  @Option(
      names = "--timeout",
      defaultValue = "2m",
      paramLabel = "DURATION",
      converter = RunCommand.GoDurationConverter.class,
      description =
          "With --kubeconfig: how long to wait for the lists (default: ${DEFAULT-VALUE}).")
  Duration timeout;

  /** The text the scenario is written as. */
  enum Format {
    YAML,
    JSON
  }

  @Option(
      names = "--format",
      defaultValue = "yaml",
      paramLabel = "yaml|json",
      converter = FormatConverter.class,
      description =
          "yaml (default) or json: JSON is a YAML document too (simulate, diff and policy explain"
              + " read it unchanged) and loads several times faster, for large clusters.")
  Format format;

  /** Accepts yaml and json in any case. */
  static final class FormatConverter implements picocli.CommandLine.ITypeConverter<Format> {
    @Override
    public Format convert(String value) {
      try {
        return Format.valueOf(value.strip().toUpperCase(java.util.Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new picocli.CommandLine.TypeConversionException(
            "expected yaml or json, got '" + value + "'");
      }
    }
  }

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description = "Write the scenario to FILE instead of standard output.")
  Path output;

  @Override
  public Integer call() throws Exception {
    String scenario = kubeconfig != null ? fromCluster() : fromScheduler();
    if (scenario == null) {
      return 1;
    }
    if (output == null) {
      parent.out().print(scenario);
      parent.out().flush();
    } else {
      Files.writeString(output, scenario, StandardCharsets.UTF_8);
    }
    return 0;
  }

  /** Through the kube bundle in a Felix of its own, without a scheduling loop. */
  private String fromCluster() throws Exception {
    if (!Files.isReadable(kubeconfig)) {
      throw new ParameterException(spec.commandLine(), "cannot read the kubeconfig " + kubeconfig);
    }
    String kubeconfigProblem = KubeconfigCheck.problem(kubeconfig);
    if (kubeconfigProblem != null) {
      throw new ParameterException(spec.commandLine(), "--kubeconfig " + kubeconfigProblem);
    }
    Path home = RunCommand.home();
    Path confFile = conf != null ? conf : home.resolve("conf/scheduler.conf");
    String confText = Files.isRegularFile(confFile) ? Files.readString(confFile) : null;
    Path policyDir = policies != null ? policies : home.resolve("policies");
    Map<String, String> policyTexts =
        Files.isDirectory(policyDir)
            ? ReplayOptions.read(spec, null, policyDir).policies()
            : Map.of();
    Path deploy = Files.createTempDirectory("caldera-snapshot-deploy-");
    RunOptions options =
        new RunOptions(
            home,
            confFile,
            policyDir,
            home.resolve("conf/demo"),
            false,
            deploy,
            Duration.ofSeconds(1),
            null,
            null,
            null,
            null,
            List.of(),
            false,
            null,
            Duration.ZERO,
            null,
            "text",
            1,
            1,
            false);
    KubeRunOptions kube =
        new KubeRunOptions(
            kubeconfig,
            schedulerNames == null || schedulerNames.isEmpty()
                ? List.of("volcano")
                : schedulerNames,
            false,
            50,
            100,
            1,
            kubeWebsocketWatches);
    try {
      return new OsgiLauncher(options, parent.err(), parent.err())
          .snapshot(
              kube,
              ClusterExport.snapshotName(java.time.Instant.now()),
              confText,
              policyTexts,
              dropUnread,
              anonymize,
              format == Format.JSON,
              timeout);
    } catch (IllegalStateException e) {
      parent.err().println("error: " + e.getMessage());
      return null;
    } finally {
      Files.deleteIfExists(deploy);
    }
  }

  private String query() {
    List<String> params = new java.util.ArrayList<>();
    if (dropUnread) {
      params.add("dropUnread=true");
    }
    if (anonymize) {
      params.add("anonymize=true");
    }
    if (format == Format.JSON) {
      params.add("format=json");
    }
    return params.isEmpty() ? "" : "?" + String.join("&", params);
  }

  /** {@code GET /api/snapshot} of a running scheduler. */
  private String fromScheduler() {
    String path = "/api/snapshot" + query();
    try {
      URI.create(admin.base() + path);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--admin: not a URL: " + admin.base());
    }
    String t = token != null ? token : System.getenv("CALDERA_ADMIN_TOKEN");
    try {
      return new AdminClient(admin, t, Duration.ofMinutes(2)).getText(path);
    } catch (AdminClient.AdminError e) {
      parent.err().println("error: " + e.getMessage());
      return null;
    }
  }
}
