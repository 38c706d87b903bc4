package dev.caldera.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.Config;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Clients#fromKubeconfig} reads a kubeconfig with the scheduler's serialization and must
 * come to the same client settings as fabric8's own {@code Config.fromKubeconfig}.
 */
class ClientsKubeconfigTest {

  private static final String KUBECONFIG =
      """
      apiVersion: v1
      kind: Config
      current-context: scheduler
      clusters:
      - name: local
        cluster:
          server: https://127.0.0.1:6443
          certificate-authority: pki/ca.crt
      - name: remote
        cluster:
          server: https://api.example.com
          insecure-skip-tls-verify: true
          tls-server-name: api.internal
      users:
      - name: caldera
        user:
          token: abc.def
      - name: admin
        user:
          client-certificate: pki/admin.crt
          client-key: /etc/keys/admin.key
      contexts:
      - name: scheduler
        context: {cluster: local, user: caldera, namespace: caldera-system}
      - name: operator
        context: {cluster: remote, user: admin}
      """;

  @TempDir Path dir;

  @Test
  void everyContext_readsAsFabric8ReadsIt() throws IOException {
    Path file = dir.resolve("kubeconfig");
    Files.writeString(file, KUBECONFIG);
    for (String context : new String[] {null, "scheduler", "operator"}) {
      Config ours = Clients.fromKubeconfig(file, context, Clients.serialization());
      Config theirs = Config.fromKubeconfig(context, file.toFile());
      for (Function<Config, Object> setting : SETTINGS) {
        assertThat(setting.apply(ours)).as("context %s", context).isEqualTo(setting.apply(theirs));
      }
    }
    Config scheduler = Clients.fromKubeconfig(file, null, Clients.serialization());
    assertThat(scheduler.getMasterUrl()).isEqualTo("https://127.0.0.1:6443/");
    assertThat(scheduler.getCaCertFile()).isEqualTo(dir.resolve("pki/ca.crt").toString());
    assertThat(scheduler.getNamespace()).isEqualTo("caldera-system");
    assertThat(scheduler.getFile()).isEqualTo(file.toFile());
  }

  @Test
  void aFileThatIsNotAKubeconfig_isAnIOExceptionNamingIt() throws IOException {
    Path file = dir.resolve("kubeconfig");
    Files.writeString(file, "clusters: [unclosed");
    assertThatThrownBy(() -> Clients.fromKubeconfig(file, null, Clients.serialization()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("cannot read the kubeconfig " + file);
    Files.writeString(file, "");
    assertThatThrownBy(() -> Clients.fromKubeconfig(file, null, Clients.serialization()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("is empty");
  }

  private static final java.util.List<Function<Config, Object>> SETTINGS =
      java.util.List.of(
          Config::getMasterUrl,
          Config::getCaCertFile,
          Config::getClientCertFile,
          Config::getClientKeyFile,
          Config::getOauthToken,
          Config::getAutoOAuthToken,
          Config::getNamespace,
          Config::isTrustCerts,
          Config::isDisableHostnameVerification,
          Config::getFile,
          c -> c.getCurrentContext() == null ? null : c.getCurrentContext().getName(),
          c -> c.getContexts().size());
}
