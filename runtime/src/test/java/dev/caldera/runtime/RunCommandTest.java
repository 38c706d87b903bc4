package dev.caldera.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Usage errors of {@code caldera run}, found before Felix starts. */
class RunCommandTest {

  @TempDir Path home;

  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  private String previousHome;

  @BeforeEach
  void distribution() throws IOException {
    previousHome = System.getProperty("caldera.home");
    System.setProperty("caldera.home", home.toString());
    Files.createDirectories(home.resolve("bundles"));
    Files.createDirectories(home.resolve("conf/demo"));
  }

  @AfterEach
  void restore() {
    if (previousHome == null) {
      System.clearProperty("caldera.home");
    } else {
      System.setProperty("caldera.home", previousHome);
    }
  }

  private int run(String... args) {
    PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
    String[] all = new String[args.length + 1];
    all[0] = "run";
    System.arraycopy(args, 0, all, 1, args.length);
    return CalderaCommand.commandLine(out, err).execute(all);
  }

  private String err() {
    return errBytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aBadLogFormatOrRotationIsAUsageError() {
    assertThat(run("--log-format", "yaml")).isEqualTo(2);
    assertThat(err()).contains("--log-format: expected text or json, got \"yaml\"");
    assertThat(run("--log-max-bytes", "10")).isEqualTo(2);
    assertThat(err()).contains("--log-max-bytes: expected at least 1024, got 10");
    assertThat(run("--log-keep", "-1")).isEqualTo(2);
    assertThat(err()).contains("--log-keep: expected 0 or more, got -1");
  }

  @Test
  void aBadAdminAddressIsAUsageError() {
    assertThat(run("--admin-address", "localhost")).isEqualTo(2);
    assertThat(err()).contains("--admin-address: expected HOST:PORT or off, got localhost");
  }

  @Test
  void aBadProbeAddressIsAUsageError() {
    assertThat(run("--probe-address", "8081")).isEqualTo(2);
    assertThat(err()).contains("--probe-address: expected HOST:PORT or off, got 8081");
  }

  @Test
  void anAdminTokenThatNoHeaderCanCarry_isRefusedAtStart() {
    assertThat(run("--admin-token", "pässwort")).isEqualTo(2);
    assertThat(err())
        .contains("--admin-token: character 2 (U+00E4) is not visible ASCII")
        .contains("no Authorization header can carry the token");
    assertThat(RunCommand.tokenProblem("s3cret-token_0.9~+/=")).isNull();
    assertThat(RunCommand.tokenProblem("two words")).contains("character 4 (U+0020)");
  }

  @Test
  void aZeroPeriodIsAUsageError() {
    assertThat(run("--schedule-period", "0s")).isEqualTo(2);
    assertThat(err()).contains("--schedule-period must be positive");
  }

  @Test
  void aSessionDebounceNotShorterThanThePeriodIsAUsageError() {
    assertThat(run("--schedule-period", "500ms", "--session-debounce", "1s")).isEqualTo(2);
    assertThat(err())
        .contains(
            "--session-debounce: expected 0 or more and less than --schedule-period (500 ms),"
                + " got 1s");
    assertThat(run("--session-debounce", "soon")).isEqualTo(2);
    assertThat(err())
        .contains("--session-debounce: expected a duration (e.g. 20ms) or off, got soon");
  }

  @Test
  void aDurationWithoutUnitIsAUsageError() {
    assertThat(run("--duration", "30")).isEqualTo(2);
    assertThat(err()).contains("missing unit");
  }

  @Test
  void aMissingClusterDirectoryIsAUsageError() {
    assertThat(run("--cluster", home.resolve("nope").toString())).isEqualTo(2);
    assertThat(err()).contains("No such directory");
  }

  @Test
  void aDistributionWithoutBundlesIsAUsageError() throws IOException {
    Files.delete(home.resolve("bundles"));
    assertThat(run()).isEqualTo(2);
    assertThat(err()).contains("No bundles/ directory in " + home);
  }

  @Test
  void aKubeconfigThatIsNotYaml_isAUsageErrorNamingTheFileAndTheLine() throws IOException {
    Path kubeconfig = home.resolve("broken.yaml");
    Files.writeString(
        kubeconfig,
        "apiVersion: v1\nkind: Config\nclusters:\n- name: x\n  cluster: {server: https://a\n");
    assertThat(run("--kubeconfig", kubeconfig.toString())).isEqualTo(2);
    assertThat(err())
        .contains("--kubeconfig " + kubeconfig + ": line ")
        .contains("expected ',' or '}'")
        .doesNotContain("\tat ");
  }

  @Test
  void aKubeconfigWhoseContextIsMissing_isAUsageErrorNamingTheField() throws IOException {
    Path kubeconfig = home.resolve("config");
    Files.writeString(
        kubeconfig,
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: local
          cluster: {server: "https://127.0.0.1:6443"}
        contexts:
        - name: local
          context: {cluster: local, user: admin}
        current-context: staging
        """);
    assertThat(run("--kubeconfig", kubeconfig.toString())).isEqualTo(2);
    assertThat(err())
        .contains("--kubeconfig " + kubeconfig + ": current-context: no context named \"staging\"");
  }

  @Test
  void aKubeconfigContextWithoutItsCluster_isAUsageError() throws IOException {
    Path kubeconfig = home.resolve("config");
    Files.writeString(
        kubeconfig,
        """
        clusters:
        - name: local
          cluster: {server: "https://127.0.0.1:6443"}
        contexts:
        - name: prod
          context: {cluster: prod-cluster}
        current-context: prod
        """);
    assertThat(run("--kubeconfig", kubeconfig.toString())).isEqualTo(2);
    assertThat(err()).contains("contexts[prod].context.cluster: no cluster named \"prod-cluster\"");
  }

  @Test
  void aKubeconfigNamingACertificateThatIsNotThere_isAUsageErrorNamingTheFile() throws IOException {
    Files.writeString(home.resolve("ca.crt"), "not checked here");
    Path kubeconfig = home.resolve("config");
    Files.writeString(
        kubeconfig,
        """
        clusters:
        - name: local
          cluster: {server: "https://127.0.0.1:6443", certificate-authority: ca.crt}
        users:
        - name: admin
          user: {client-certificate: admin.crt, client-key: admin.key}
        contexts:
        - name: local
          context: {cluster: local, user: admin}
        current-context: local
        """);
    assertThat(run("--kubeconfig", kubeconfig.toString())).isEqualTo(2);
    assertThat(err())
        .contains(
            "--kubeconfig "
                + kubeconfig
                + ": users[admin].user.client-certificate: cannot read "
                + home.resolve("admin.crt"));
  }

  @Test
  void aWellFormedKubeconfig_passesTheCheck() throws IOException {
    Path kubeconfig = home.resolve("config");
    Files.writeString(
        kubeconfig,
        """
        clusters:
        - name: local
          cluster: {server: "https://127.0.0.1:6443"}
        contexts:
        - name: local
          context: {cluster: local}
        current-context: local
        """);
    assertThat(dev.caldera.runtime.run.KubeconfigCheck.problem(kubeconfig)).isNull();
  }

  @Test
  void goDurations_areReadAsGoReadsThem() {
    RunCommand.GoDurationConverter c = new RunCommand.GoDurationConverter();
    assertThat(c.convert("1s")).isEqualTo(Duration.ofSeconds(1));
    assertThat(c.convert("250ms")).isEqualTo(Duration.ofMillis(250));
    assertThat(c.convert("1m30s")).isEqualTo(Duration.ofSeconds(90));
  }
}
