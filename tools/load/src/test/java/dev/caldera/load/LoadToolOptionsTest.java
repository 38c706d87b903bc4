package dev.caldera.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The command line: defaults, help, and one clear line with exit code 2 for a wrong value. */
class LoadToolOptionsTest {

  @TempDir Path dir;

  private Path kubeconfig;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @BeforeEach
  void aKubeconfig() throws IOException {
    kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(
        kubeconfig,
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: c
          cluster: {server: 'https://127.0.0.1:1'}
        users:
        - name: u
          user: {token: t}
        contexts:
        - name: ctx
          context: {cluster: c, user: u}
        current-context: ctx
        """);
  }

  private int load(String... args) {
    return LoadTool.run(
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  private LoadSettings settings(String... more) {
    List<String> args = new ArrayList<>(List.of("--kubeconfig", kubeconfig.toString()));
    args.addAll(List.of(more));
    return LoadTool.settings(args.toArray(String[]::new));
  }

  @Test
  void defaults_areGangsOfTen_at100PodsASecond_for60s_on200Nodes() {
    LoadSettings s = settings();

    assertThat(s.nodes()).isEqualTo(200);
    assertThat(s.createsNodes()).isTrue();
    assertThat(s.gangSize()).isEqualTo(10);
    assertThat(s.rate()).isEqualTo(100);
    assertThat(s.duration()).isEqualTo(Duration.ofSeconds(60));
    assertThat(s.queue()).isEqualTo("default");
    assertThat(s.schedulerName()).isEqualTo("volcano");
    assertThat(s.pod().cpu().toString()).isEqualTo("100m");
    assertThat(s.pod().memory().toString()).isEqualTo("64Mi");
    assertThat(s.backlog()).isZero();
    assertThat(s.settle()).isEqualTo(Duration.ofSeconds(3));
    assertThat(s.drain()).isEqualTo(Duration.ofSeconds(30));
    assertThat(s.workers()).isEqualTo(16);
    assertThat(s.json()).isFalse();
    assertThat(s.workload()).isEqualTo(new Workload(10, 600));
    assertThat(s.gangPodsTogether()).isTrue();
    assertThat(s.schedule().offsetNanos(9)).as("a gang's last pod, due with its first").isZero();
  }

  @Test
  void gangArrivalSpread_duesEachPodOnItsOwn_andPlainPodsAlwaysAre() {
    assertThat(settings("--gang-arrival", "spread").schedule().offsetNanos(9))
        .isEqualTo(90_000_000L);
    assertThat(settings("--plain").schedule().offsetNanos(9)).isEqualTo(90_000_000L);
  }

  @Test
  void plain_isGangSizeZero() {
    assertThat(settings("--plain").gangSize()).isZero();
    assertThat(settings("--gang-size", "0").workload()).isEqualTo(new Workload(0, 6_000));
  }

  @Test
  void aRunThatFitsItsNodes_isNotOverfilled() {
    // 200 nodes of 110 pods: 22,000 pods of the default shape.
    assertThat(settings("--duration", "220s").overfilled(22_000)).isNull();
    assertThat(
            settings("--nodes", "50", "--backlog", "1000", "--pod-cpu", "1", "--launch", "ks")
                .overfilled(1_000))
        .as("50 nodes of 32 CPUs hold 1,600 pods of one CPU")
        .isNull();
  }

  @Test
  void aRunWithMorePodsThanItsNodesHold_saysHowManyStayPending_andHowManyNodesWouldDo() {
    assertThat(settings("--duration", "300s").overfilled(30_000))
        .isEqualTo(
            "the run's 30000 pods are more than its 200 fake nodes hold (110 a node, for pods of"
                + " cpu 100m and memory 64Mi): 8000 will stay pending; --nodes 273 holds them all");
    assertThat(settings("--nodes", "10", "--pod-cpu", "4", "--pod-memory", "1Gi").overfilled(100))
        .as("the CPU is what runs out: 8 pods of 4 CPUs a node")
        .contains("(8 a node,")
        .contains(": 20 will stay pending; --nodes 13 holds them all");
    assertThat(settings("--nodes", "10", "--pod-memory", "64Gi").overfilled(30))
        .as("the memory: 2 pods of 64Gi a node")
        .contains("(2 a node,");
  }

  @Test
  void nodesFoundByLabel_areNeverOverfilled_theirRoomIsNotKnown() {
    assertThat(settings("--node-selector", "pool=load").overfilled(1_000_000)).isNull();
  }

  @Test
  void aBacklog_isWholeGangs_andTakesTheLaunchCommand() {
    LoadSettings s = settings("--backlog", "1000", "--launch", "kube-scheduler --config ks.yaml");

    assertThat(s.backlogMode()).isTrue();
    assertThat(s.workload()).isEqualTo(new Workload(10, 100));
    assertThat(s.launch()).isEqualTo("kube-scheduler --config ks.yaml");
  }

  @Test
  void aNodeSelector_createsNoNodes() {
    LoadSettings s = settings("--node-selector", "pool=load");

    assertThat(s.createsNodes()).isFalse();
    assertThat(s.nodeSelector()).isEqualTo(Map.of("pool", "load"));
  }

  @Test
  void help_listsEveryOptionWithItsDefault() {
    assertThat(load("--help")).isZero();
    String help = out.toString(StandardCharsets.UTF_8);

    List<String> names = new ArrayList<>();
    // The options' list, not the synopsis above it (whose wrapped lines may start with an option).
    Matcher m =
        Pattern.compile("(?m)^\\s+(?:-\\w, )?(--[a-z-]+)")
            .matcher(help.substring(help.indexOf("  -h, --help")));
    while (m.find()) {
      names.add(m.group(1));
    }
    assertThat(names)
        .containsExactly(
            "--help",
            "--kubeconfig",
            "--context",
            "--nodes",
            "--node-selector",
            "--queue",
            "--scheduler-name",
            "--rate",
            "--duration",
            "--gang-size",
            "--gang-arrival",
            "--plain",
            "--pod-cpu",
            "--pod-memory",
            "--backlog",
            "--settle",
            "--launch",
            "--scheduler-pid",
            "--drain",
            "--workers",
            "--output");
    // Each option's text, up to the next option, names its default (or that it has none).
    String options = help.substring(help.indexOf("  -h, --help"));
    String[] blocks = options.substring(options.indexOf("--kubeconfig")).split("(?m)^\\s+(?=-)");
    for (String block : blocks) {
      assertThat(block.replaceAll("\\s+", " "))
          .as("help of %s", block.lines().findFirst().orElse(""))
          .containsPattern("\\((default: [^)]*|required; no default)\\)");
    }
    assertThat(help)
        .contains("(default: 200)", "(default: 100)", "(default: 60s)", "(default: 10)")
        .contains("(default: 100m)", "(default: 64Mi)", "(default: 30s)", "(default: 3s)")
        .contains("(default: volcano)", "(default: default)", "(default: table)");
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "--rate|abc|caldera load: --rate: expected a number of pods per second greater than 0,"
            + " got 'abc'",
        "--rate|0|caldera load: --rate: expected a number of pods per second greater than 0, got"
            + " '0'",
        "--rate|-5|caldera load: --rate: expected a number of pods per second greater than 0, got"
            + " '-5'",
        "--duration|soon|caldera load: --duration: expected a duration greater than 0 such as 60s,"
            + " 1.5s, 500ms or 2m, got 'soon'",
        "--duration|0s|caldera load: --duration: expected a duration greater than 0 such as 60s,"
            + " 1.5s, 500ms or 2m, got '0s'",
        "--drain|-1s|caldera load: --drain: expected a duration such as 60s, 1.5s, 500ms or 2m,"
            + " got '-1s'",
        "--settle|x|caldera load: --settle: expected a duration such as 60s, 1.5s, 500ms or 2m,"
            + " got 'x'",
        "--nodes|0|caldera load: --nodes: expected 1 or more, got 0",
        "--nodes|many|caldera load: Invalid value for option '--nodes': 'many' is not an int",
        "--gang-size|-1|caldera load: --gang-size: expected 0 (plain pods) or more, got -1",
        "--workers|0|caldera load: --workers: expected 1 or more, got 0",
        "--pod-cpu|lots|caldera load: --pod-cpu: expected a quantity of 0 or more such as 100m, 2"
            + " or 64Mi, got 'lots'",
        "--pod-memory|-1Gi|caldera load: --pod-memory: expected a quantity of 0 or more such as"
            + " 100m, 2 or 64Mi, got '-1Gi'",
        "--node-selector|pool|caldera load: --node-selector: expected KEY=VALUE, got 'pool'",
        "--output|xml|caldera load: --output: expected table or json, got 'xml'",
        "--gang-arrival|burst|caldera load: --gang-arrival: expected together or spread, got"
            + " 'burst'",
        "--backlog|100|caldera load: --backlog needs --launch COMMAND: the scheduler starts after"
            + " the backlog",
        "--scheduler-pid|999999999|caldera load: --scheduler-pid: no process 999999999 is running",
      })
  void aWrongValue_isOneLineNamingTheOption_andExitCode2(
      String option, String value, String message) {
    int code = load("--kubeconfig", kubeconfig.toString(), option, value);

    assertThat(code).isEqualTo(2);
    assertThat(err().lines().toList()).containsExactly(message);
    assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
  }

  @Test
  void contradictions_areUsageErrors() {
    assertThat(load("--kubeconfig", kubeconfig.toString(), "--plain", "--gang-size", "5"))
        .isEqualTo(2);
    assertThat(
            load(
                "--kubeconfig",
                kubeconfig.toString(),
                "--backlog",
                "100",
                "--launch",
                "x",
                "--rate",
                "5"))
        .isEqualTo(2);
    assertThat(load("--kubeconfig", kubeconfig.toString(), "--backlog", "105", "--launch", "x"))
        .isEqualTo(2);
    assertThat(
            load(
                "--kubeconfig",
                kubeconfig.toString(),
                "--launch",
                "x",
                "--scheduler-pid",
                Long.toString(ProcessHandle.current().pid())))
        .isEqualTo(2);
    assertThat(
            load("--kubeconfig", kubeconfig.toString(), "--node-selector", "a=b", "--nodes", "3"))
        .isEqualTo(2);
    assertThat(err().lines().toList())
        .containsExactly(
            "caldera load: --plain and --gang-size 5 contradict each other",
            "caldera load: --backlog takes no --rate or --duration: the backlog is created at once",
            "caldera load: --backlog: expected a multiple of --gang-size (10), got 105",
            "caldera load: --launch and --scheduler-pid contradict each other: give one",
            "caldera load: --nodes and --node-selector contradict each other: with a selector no"
                + " node is created");
  }

  @Test
  void anUnreadableKubeconfig_isOneLine_andExitCode2() {
    Path missing = dir.resolve("nope");

    assertThat(load("--kubeconfig", missing.toString())).isEqualTo(2);
    assertThat(err().lines().toList())
        .containsExactly(
            "caldera load: --kubeconfig: cannot read "
                + missing
                + " (no such file): expected a kubeconfig file");
  }

  @Test
  void aFileThatIsNoKubeconfig_isOneLine_andExitCode2() throws IOException {
    Path notYaml = Files.writeString(dir.resolve("notes.txt"), "[this: is: not yaml\n");

    assertThat(load("--kubeconfig", notYaml.toString())).isEqualTo(2);
    assertThat(err().lines().toList()).hasSize(1);
    assertThat(err()).startsWith("caldera load: --kubeconfig: " + notYaml + " is not a kubeconfig");
  }

  @Test
  void aContextTheKubeconfigLacks_isOneLine_andExitCode2() {
    assertThat(load("--kubeconfig", kubeconfig.toString(), "--context", "other")).isEqualTo(2);
    assertThat(err().lines().toList()).hasSize(1);
    assertThat(err()).contains("other");
  }

  @Test
  void noKubeconfig_isAUsageError() {
    assertThat(load("--rate", "5")).isEqualTo(2);
    assertThat(err().lines().toList())
        .containsExactly("caldera load: Missing required option: '--kubeconfig=FILE'");
  }

  @Test
  void anUnknownOption_isAUsageError() {
    assertThat(load("--kubeconfig", kubeconfig.toString(), "--frobnicate")).isEqualTo(2);
    assertThat(err().lines().toList())
        .containsExactly("caldera load: Unknown option: '--frobnicate'");
  }

  @Test
  void anApiServerThatDoesNotAnswer_isOneLine_andExitCode1() {
    assertThat(load("--kubeconfig", kubeconfig.toString(), "--plain", "--duration", "1s"))
        .isEqualTo(1);
    assertThat(err().lines().toList())
        .containsExactly(
            "caldera load: cannot reach the API server https://127.0.0.1:1/: ConnectException");
    assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
  }
}
