package dev.caldera.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.impl.BaseClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Closing the scheduler's client ends its task threads first: when the kube bundle stops, no task
 * of the client may still run and load classes from the stopped bundle.
 */
class ClientsCloseTest {

  @TempDir Path dir;

  @Test
  void close_returnsOnlyWhenTheTaskInFlightHasEnded() throws Exception {
    KubernetesClient client = Clients.create(kubeconfig(), null, 50, 100, true);
    CountDownLatch running = new CountDownLatch(1);
    AtomicBoolean ended = new AtomicBoolean();
    client
        .adapt(BaseClient.class)
        .getExecutor()
        .execute(
            () -> {
              running.countDown();
              // Like a list being read when the bundle stops: busy, not waiting to be interrupted.
              long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
              while (System.nanoTime() < until) {
                Thread.onSpinWait();
              }
              ended.set(true);
            });
    assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();

    client.close();

    assertThat(ended).as("the task ended before close() returned").isTrue();
    assertThat(Thread.getAllStackTraces().keySet())
        .noneMatch(t -> t.getName().startsWith("caldera-kube-client-") && t.isAlive());
  }

  private Path kubeconfig() throws IOException {
    Path file = dir.resolve("kubeconfig");
    Files.writeString(
        file,
        """
        apiVersion: v1
        kind: Config
        current-context: c
        clusters:
        - name: c
          cluster: {server: "http://127.0.0.1:1"}
        users:
        - name: u
          user: {token: t}
        contexts:
        - name: c
          context: {cluster: c, user: u}
        """);
    return file;
  }
}
