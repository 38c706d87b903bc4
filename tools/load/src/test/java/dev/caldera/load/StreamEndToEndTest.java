package dev.caldera.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A paced stream of gangs on the mock API server, scheduled by Caldera in this process: every pod
 * is bound, no gang is bound in part, no pod is seen bound before its create request went out, and
 * the run leaves nothing behind. (Orders and counts only; the figures come from real runs.)
 */
class StreamEndToEndTest {

  @TempDir Path dir;

  @Test
  void aStreamOfGangs_isBoundInFullGangs_afterEachCreate_andCleanedUp() throws Exception {
    try (MockCluster mock = new MockCluster();
        KubernetesClient client = mock.client()) {
      mock.installVolcanoCrds();
      Path kubeconfig = mock.kubeconfig(dir);
      LoadSettings settings =
          LoadTool.settings(
              "--kubeconfig", kubeconfig.toString(),
              "--nodes", "10",
              "--gang-size", "5",
              "--rate", "50",
              "--duration", "2s",
              "--settle", "0",
              "--drain", "60s");
      InProcessCaldera caldera = new InProcessCaldera(kubeconfig);
      ByteArrayOutputStream progress = new ByteArrayOutputStream();
      LoadRun run =
          new LoadRun(
              settings,
              client,
              caldera,
              new PrintStream(progress, true, StandardCharsets.UTF_8),
              "stream");
      LoadReport report;
      try {
        report = run.run();
      } finally {
        caldera.stop();
      }
      PodTimes times = run.times();
      Workload w = times.workload();

      assertThat(w.pods()).isEqualTo(100);
      assertThat(report.podsCreated()).isEqualTo(100);
      assertThat(report.podsBound()).as(progress.toString(StandardCharsets.UTF_8)).isEqualTo(100);
      assertThat(report.podsNeverBound()).isZero();
      assertThat(report.createFailures()).isZero();
      for (int gang = 0; gang < w.units(); gang++) {
        long bound =
            IntStream.range(gang * w.gangSize(), (gang + 1) * w.gangSize())
                .filter(times::isBound)
                .count();
        assertThat(bound).as("bound pods of %s", w.groupName(gang)).isIn(0L, (long) w.gangSize());
      }
      for (int pod = 0; pod < w.pods(); pod++) {
        assertThat(times.boundAt(pod))
            .as("%s bound after its create was sent", w.podName(pod))
            .isGreaterThanOrEqualTo(times.sentAt(pod));
      }
      assertThat(report.createToBound().pods()).isEqualTo(100);
      assertThat(report.boundPerSecond().stream().mapToInt(Integer::intValue).sum()).isEqualTo(100);

      assertThat(run.cleanup()).isEmpty();
      assertThat(client.namespaces().withName(run.cluster().namespace()).get()).isNull();
      assertThat(client.nodes().withLabel(LoadObjects.RUN_LABEL, "stream").list().getItems())
          .isEmpty();
      assertThat(client.pods().inAnyNamespace().list().getItems()).isEmpty();
      assertThat(client.genericKubernetesResources(LoadObjects.QUEUES).list().getItems())
          .as("the queue the run created")
          .isEmpty();
    }
  }
}
