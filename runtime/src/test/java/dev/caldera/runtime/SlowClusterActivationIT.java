package dev.caldera.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.caldera.cdstraining.TrainingApiServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution's {@code caldera run --kubeconfig} schedules when connecting takes long: here
 * the kubeconfig's credential plugin ({@code users[].user.exec}, run while the client is built)
 * answers after {@link #HELD_SECONDS}, as a cloud's plugin or a pod with a small CPU limit can. The
 * kube component connected inside its activation, and the scheduling loop, asking for it, gave up
 * after Declarative Services' 5 s for good (no binds ever); Felix's start also waited for it, and
 * the bundle audit then took a bundle still waiting for its start for one that does not resolve.
 */
class SlowClusterActivationIT {

  private static final Path DIST = Path.of("target/caldera");

  /** Long enough that the loop asks for the cluster, and would give up, before it is connected. */
  private static final long HELD_SECONDS = 15;

  @TempDir Path work;

  @Test
  void theLoopWaitsForAClusterThatTakesLongToConnect_andBinds() throws Exception {
    assumeTrue(
        Files.isExecutable(DIST.resolve("bin/caldera")), "the distribution was not built: " + DIST);
    assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "no /bin/sh for the credential plugin");
    Path output = work.resolve("run.out");
    try (TrainingApiServer api = TrainingApiServer.start(DIST.resolve("conf/demo"), 1)) {
      Path kubeconfig = work.resolve("kubeconfig");
      // The plugin prints an ExecCredential (client.authentication.k8s.io/v1) after a while.
      String credential =
          "{\"apiVersion\": \"client.authentication.k8s.io/v1\", \"kind\": \"ExecCredential\","
              + " \"status\": {\"token\": \"slow\"}}";
      Files.writeString(
          kubeconfig,
          """
          apiVersion: v1
          kind: Config
          current-context: slow
          clusters:
          - name: slow
            cluster: {server: '%s', certificate-authority-data: '%s'}
          contexts:
          - name: slow
            context: {cluster: slow, user: slow}
          users:
          - name: slow
            user:
              exec:
                apiVersion: client.authentication.k8s.io/v1
                interactiveMode: Never
                command: /bin/sh
                args: ["-c", "sleep %d; echo '%s'"]
          """
              .formatted(
                  api.url(),
                  api.certificateAuthorityData(),
                  HELD_SECONDS,
                  credential.replace("\"", "\\\"")));
      Process run =
          new ProcessBuilder(
                  DIST.resolve("bin/caldera").toString(),
                  "run",
                  "--kubeconfig",
                  kubeconfig.toString(),
                  "--duration",
                  "90s",
                  "--admin-address",
                  "off",
                  "--status-interval",
                  "0",
                  "--log",
                  work.resolve("caldera.log").toString())
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
      long started = System.nanoTime();
      try {
        long deadline = started + TimeUnit.SECONDS.toNanos(HELD_SECONDS + 60);
        while (api.binds() < api.pods() && run.isAlive() && System.nanoTime() < deadline) {
          Thread.sleep(100);
        }
      } finally {
        run.destroy();
        run.waitFor(30, TimeUnit.SECONDS);
        run.destroyForcibly();
      }
      long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
      String out = Files.readString(output, StandardCharsets.UTF_8);
      assertThat(api.binds()).as("binds; the run printed:%n%s", out).isEqualTo(api.pods());
      assertThat(seconds)
          .as("seconds to the binds: the plugin held the connection")
          .isGreaterThanOrEqualTo(HELD_SECONDS);
      assertThat(out).doesNotContain("Could not get service").doesNotContain("BundleUnresolved");
      // What the kube bundle logs through java.util.logging reads as the run's own lines do.
      assertThat(out)
          .containsPattern(
              "(?m)^\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z INFO  dev\\.caldera\\.kube\\.internal\\.MetricsPoller"
                  + " metrics\\.k8s\\.io is not served")
          .doesNotContainPattern("(?m)^(INFO|WARNING|SEVERE): ");
    }
  }
}
