package dev.caldera.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code caldera load} from its command line on the mock API server: the start-up case (a backlog,
 * then Caldera launched as a process of its own) and a stream of plain pods to a scheduler that
 * runs already. Counts and orders only, never timings.
 */
class LoadToolEndToEndTest {

  @TempDir Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int load(String... args) {
    return LoadTool.run(
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private JsonNode report() throws Exception {
    return new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
  }

  /** What the test JVM runs with: the launched scheduler gets the same classes. */
  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static String classPath() {
    return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
  }

  @Test
  void aBacklog_thenCalderaLaunched_bindsEveryPodAfterTheLaunch_andLeavesNothing()
      throws Exception {
    try (MockCluster mock = new MockCluster()) {
      mock.installVolcanoCrds();
      Path kubeconfig = mock.kubeconfig(dir);
      String launch =
          "'%s' -cp '%s' dev.caldera.load.InProcessCaldera '%s'"
              .formatted(java(), classPath(), kubeconfig);

      int code =
          load(
              "--kubeconfig", kubeconfig.toString(),
              "--nodes", "5",
              "--backlog", "60",
              "--gang-size", "6",
              "--settle", "200ms",
              "--drain", "120s",
              "--launch", launch,
              "-o", "json");

      String errText = err.toString(StandardCharsets.UTF_8);
      assertThat(code).as(errText).isZero();
      JsonNode r = report();
      assertThat(r.path("mode").asText()).isEqualTo("backlog");
      assertThat(r.path("podsPlanned").asInt()).isEqualTo(60);
      assertThat(r.path("podsCreated").asInt()).isEqualTo(60);
      assertThat(r.path("podsBound").asInt()).as(errText + r).isEqualTo(60);
      assertThat(r.path("podsNeverBound").asInt()).isZero();
      assertThat(r.path("podsBoundBeforeWindowStart").asInt())
          .as("bound before the launch")
          .isZero();
      assertThat(r.path("firstBindSeconds").asDouble()).isNotNegative();
      assertThat(r.path("allBoundSeconds").asDouble())
          .isGreaterThanOrEqualTo(r.path("firstBindSeconds").asDouble());
      assertThat(r.path("schedulerCpuSeconds").isNumber())
          .as("the launched process's CPU")
          .isTrue();
      assertThat(r.path("schedulerCpuSecondsPer1000Bound").isNumber()).isTrue();
      assertThat(r.path("schedulerLog").asText()).isNotEmpty();
      assertThat(r.path("cleanupProblems")).isEmpty();

      assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList())
          .as("the launched scheduler and its shell are stopped")
          .isEmpty();
      assertThat(mock.kubectl.namespaces().list().getItems()).isEmpty();
      assertThat(mock.kubectl.nodes().list().getItems()).isEmpty();
      assertThat(mock.kubectl.genericKubernetesResources(LoadObjects.QUEUES).list().getItems())
          .isEmpty();
    }
  }

  @Test
  void aStreamOfPlainPods_toARunningScheduler_isAllBound_withItsCpuRead() throws Exception {
    try (MockCluster mock = new MockCluster()) {
      Path kubeconfig = mock.kubeconfig(dir);
      InProcessCaldera caldera = new InProcessCaldera(kubeconfig);
      caldera.start();
      try {
        int code =
            load(
                "--kubeconfig",
                kubeconfig.toString(),
                "--plain",
                "--nodes",
                "4",
                "--rate",
                "40",
                "--duration",
                "1s",
                "--drain",
                "60s",
                "--scheduler-pid",
                Long.toString(ProcessHandle.current().pid()));

        String errText = err.toString(StandardCharsets.UTF_8);
        assertThat(code).as(errText).isZero();
        String table = out.toString(StandardCharsets.UTF_8);
        assertThat(table)
            .contains("pods created:      40 of 40")
            .contains("pods bound:        40 of 40, none left unbound")
            .contains("scheduler CPU:")
            .doesNotContain("not known")
            .contains("cleanup:           everything the run created was deleted");
        assertThat(errText).as("no CRDs needed for plain pods").doesNotContain("CRD");
      } finally {
        caldera.stop();
      }
      assertThat(mock.kubectl.namespaces().list().getItems()).isEmpty();
      assertThat(mock.kubectl.nodes().list().getItems()).isEmpty();
    }
  }

  @Test
  void gangsWithoutVolcanoCrds_failEarly_sayingHowToInstallThem() throws Exception {
    try (MockCluster mock = new MockCluster()) {
      Path kubeconfig = mock.kubeconfig(dir);

      int code = load("--kubeconfig", kubeconfig.toString(), "--duration", "1s");

      assertThat(code).isEqualTo(1);
      List<String> lines = err.toString(StandardCharsets.UTF_8).lines().toList();
      assertThat(lines)
          .containsExactly(
              "caldera load: gangs need Volcano's CRDs, and the API server does not serve queues"
                  + " and podgroups of scheduling.volcano.sh/v1beta1: install them with `kubectl"
                  + " apply -k runtime/deploy/crds` (in Caldera's source tree), or load plain pods"
                  + " with --plain");
      assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
      assertThat(mock.kubectl.nodes().list().getItems()).as("nothing created").isEmpty();
      assertThat(mock.kubectl.namespaces().list().getItems()).isEmpty();
    }
  }
}
