package dev.caldera.kube.internal.osgi;

import static dev.caldera.kube.MockApi.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.SourceStatus;
import dev.caldera.kube.MockApi;
import dev.caldera.kube.PluginBundles;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Version;

/**
 * The OSGi shell without a framework: configured from a kubeconfig file that points at the mock API
 * server (binding emulated by expectations, see {@link MockApi}), its sessions are idle until this
 * replica may schedule.
 */
class KubeClusterComponentTest {

  private final MockApi api = new MockApi();
  @TempDir Path dir;

  @AfterEach
  void stop() {
    api.close();
  }

  /**
   * A BundleContext that accepts service registrations and returns none, and that shows, as
   * FileInstall would, an ACTIVE bundle for each {@code pluginbundle-*.jar} in {@code deploy}.
   */
  private static BundleContext fileInstallContext(Path deploy) {
    return (BundleContext)
        Proxy.newProxyInstance(
            KubeClusterComponentTest.class.getClassLoader(),
            new Class<?>[] {BundleContext.class},
            (proxy, method, args) -> {
              if (!method.getName().equals("getBundles")) {
                return null;
              }
              List<Bundle> bundles = new java.util.ArrayList<>();
              try (var files = Files.newDirectoryStream(deploy, "pluginbundle-*.jar")) {
                for (Path f : files) {
                  bundles.add(
                      (Bundle)
                          Proxy.newProxyInstance(
                              KubeClusterComponentTest.class.getClassLoader(),
                              new Class<?>[] {Bundle.class},
                              (b, m, a) ->
                                  switch (m.getName()) {
                                    case "getLocation" -> f.toUri().toString();
                                    case "getSymbolicName" -> "test.probe";
                                    case "getVersion" -> new Version(1, 2, 0);
                                    case "getState" -> Bundle.ACTIVE;
                                    default -> null;
                                  }));
                }
              }
              return bundles.toArray(Bundle[]::new);
            });
  }

  @Test
  void pluginBundles_areWrittenToTheDeployDirectory_andTheFrameworksBundleIsReported()
      throws Exception {
    Manifest m = new Manifest();
    m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    m.getMainAttributes().putValue("Bundle-SymbolicName", "test.probe;singleton:=true");
    m.getMainAttributes().putValue("Bundle-Version", "1.2.0");
    ByteArrayOutputStream jar = new ByteArrayOutputStream();
    new JarOutputStream(jar, m).close();
    byte[] bytes = jar.toByteArray();
    HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    http.createContext(
        "/",
        x -> {
          x.sendResponseHeaders(200, bytes.length);
          x.getResponseBody().write(bytes);
          x.close();
        });
    http.start();
    Path deploy = Files.createDirectories(dir.resolve("deploy"));
    KubeClusterComponent c = new KubeClusterComponent();
    c.activate(
        fileInstallContext(deploy),
        config(
            Map.of(
                "identity",
                "solo",
                "plugin_bundles_dir",
                deploy.toString(),
                "plugin_bundles_namespace",
                "test")));
    ResourceDefinitionContext pluginBundles =
        new ResourceDefinitionContext.Builder()
            .withGroup(PluginBundles.GROUP)
            .withVersion(PluginBundles.VERSION)
            .withKind("PluginBundle")
            .withPlural(PluginBundles.PLURAL)
            .withNamespaced(true)
            .build();
    try {
      var kubectl = api.client();
      kubectl
          .genericKubernetesResources(pluginBundles)
          .inNamespace("test")
          .resource(
              new GenericKubernetesResourceBuilder()
                  .withApiVersion("caldera.dev/v1alpha1")
                  .withKind("PluginBundle")
                  .withNewMetadata()
                  .withName("probe")
                  .endMetadata()
                  .addToAdditionalProperties(
                      "spec",
                      Map.of(
                          "url",
                          "http://127.0.0.1:" + http.getAddress().getPort() + "/probe.jar",
                          "sha256",
                          HexFormat.of()
                              .formatHex(MessageDigest.getInstance("SHA-256").digest(bytes))))
                  .build())
          .create();
      await(
          "reported installed",
          () ->
              String.valueOf(
                      kubectl
                          .genericKubernetesResources(pluginBundles)
                          .inNamespace("test")
                          .withName("probe")
                          .get()
                          .getAdditionalProperties()
                          .get("status"))
                  .contains("state=Installed"));
      assertThat(deploy.resolve("pluginbundle-probe.jar")).hasBinaryContent(bytes);
    } finally {
      c.deactivate();
      http.stop(0);
    }
  }

  /** A BundleContext that accepts service registrations and returns none (counters only). */
  private static BundleContext context() {
    return (BundleContext)
        Proxy.newProxyInstance(
            KubeClusterComponentTest.class.getClassLoader(),
            new Class<?>[] {BundleContext.class},
            (proxy, method, args) -> null);
  }

  private KubeClusterComponent.Config config(Map<String, Object> values) throws Exception {
    Path kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(
        kubeconfig,
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: mock
          cluster: {server: "%s"}
        users:
        - name: test
          user: {token: secret}
        contexts:
        - name: mock
          context: {cluster: mock, user: test, namespace: test}
        current-context: mock
        """
            .formatted(api.url()));
    Map<String, Object> all = new java.util.HashMap<>(values);
    all.putIfAbsent("kubeconfig", kubeconfig.toString());
    all.putIfAbsent("metrics_interval_ms", 0L);
    // fabric8's mock server streams watches over WebSockets only.
    all.putIfAbsent("http_watches", false);
    all.putIfAbsent("lease_duration_ms", 1500L);
    all.putIfAbsent("renew_deadline_ms", 1000L);
    all.putIfAbsent("retry_period_ms", 100L);
    return (KubeClusterComponent.Config)
        Proxy.newProxyInstance(
            getClass().getClassLoader(),
            new Class<?>[] {KubeClusterComponent.Config.class},
            (proxy, method, args) -> {
              Object v = all.get(method.getName());
              return v != null ? v : method.getDefaultValue();
            });
  }

  @Test
  void sessionsAreIdle_untilSynced_thenSeeTheCluster_andApplyReachesTheServer() throws Exception {
    api.node("n1", "4", "8Gi");
    api.pod("ns1", "p").requests("1", "1Gi").create();
    KubeClusterComponent c = new KubeClusterComponent();
    c.activate(context(), config(Map.of("identity", "solo")));
    try {
      await("the cluster seen", () -> c.snapshot().pods().size() == 1);
      assertThat(c.snapshot().nodes()).hasSize(1);
      c.apply(
          new SessionResult(
              "s",
              List.of(new SessionResult.Bind("ns1/p", "n1")),
              List.of(),
              List.of(),
              Map.of(),
              Map.of(),
              Map.of(),
              List.of(),
              null));
      await("bound", () -> "n1".equals(api.nodeOf("ns1", "p")));
      await("the bind counted as accepted", () -> c.accepted().binds() == 1);
      assertThat(c.status().isReady()).isTrue();
    } finally {
      c.deactivate();
    }
  }

  /**
   * An {@code exec} credential plugin that answers only when told to: the activation returns at
   * once (a blocked activation held up the framework's start and the scheduling loop), the status
   * says the client is being built, and the cluster is seen once the plugin has answered.
   */
  @Test
  @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aSlowCredentialPlugin_doesNotHoldTheActivation_andTheStatusSaysConnecting()
      throws Exception {
    api.node("n1", "4", "8Gi");
    Path go = dir.resolve("go");
    Path kubeconfig =
        execPluginKubeconfig(
            "i=0; until [ -e '%s' ] || [ $i -ge 600 ]; do sleep 0.05; i=$((i+1)); done"
                .formatted(go));
    KubeClusterComponent c = new KubeClusterComponent();
    c.activate(context(), config(Map.of("kubeconfig", kubeconfig.toString())));
    try {
      assertThat(c.status().reason())
          .isEqualTo("connecting to the API server (building the client)");
      assertThat(c.snapshot().nodes()).isEmpty();
      Files.createFile(go);
      await("the cluster seen", () -> c.snapshot().nodes().size() == 1);
      // The watches open after the lists: ready once every one is up.
      await("ready", () -> c.status().isReady());
    } finally {
      c.deactivate();
    }
  }

  /**
   * The loop asks once a period whether a session may run. The first answer waits for the connect
   * (a credential plugin that takes a moment here) and then for the informers' first lists, so the
   * first session does not come up to a period after the sync.
   */
  @Test
  @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void theFirstStatus_waitsForTheConnectAndTheLists() throws Exception {
    api.node("n1", "4", "8Gi");
    Path kubeconfig = execPluginKubeconfig("sleep 0.3");
    KubeClusterComponent c = new KubeClusterComponent();
    c.activate(context(), config(Map.of("kubeconfig", kubeconfig.toString())));
    try {
      SourceStatus first = c.status();
      assertThat(first.isReady()).as("the first status: %s", first.reason()).isTrue();
      assertThat(c.snapshot().nodes()).hasSize(1);
    } finally {
      c.deactivate();
    }
  }

  /**
   * A kubeconfig for the mock server whose user's token comes from an {@code exec} credential
   * plugin that runs {@code script} (sh) before it answers.
   */
  private Path execPluginKubeconfig(String script) throws IOException {
    Path kubeconfig = Files.createTempFile(dir, "kubeconfig-exec", "");
    String credential =
        "{\"apiVersion\": \"client.authentication.k8s.io/v1\", \"kind\": \"ExecCredential\","
            + " \"status\": {\"token\": \"secret\"}}";
    Files.writeString(
        kubeconfig,
        """
        clusters:
        - name: mock
          cluster: {server: "%s"}
        users:
        - name: plugin
          user:
            exec:
              apiVersion: client.authentication.k8s.io/v1
              interactiveMode: Never
              command: /bin/sh
              args: ["-c", "%s; echo '%s'"]
        contexts:
        - name: mock
          context: {cluster: mock, user: plugin, namespace: test}
        current-context: mock
        """
            .formatted(api.url(), script, credential.replace("\"", "\\\"")));
    return kubeconfig;
  }

  /**
   * A certificate file that is not there yet (a secret still being mounted): the component says why
   * and tries again (the process stays live, so no probe would restart it), printing the reason
   * once, and connects once the file is there.
   */
  @Test
  void aFailedConnect_isTriedAgain_untilItWorks() throws Exception {
    api.node("n1", "4", "8Gi");
    Path ca = dir.resolve("ca.crt");
    Path kubeconfig = dir.resolve("kubeconfig-ca-later");
    Files.writeString(
        kubeconfig,
        """
        clusters:
        - name: mock
          cluster: {server: "%s", certificate-authority: "%s"}
        users:
        - name: test
          user: {token: secret}
        contexts:
        - name: mock
          context: {cluster: mock, user: test, namespace: test}
        current-context: mock
        """
            .formatted(api.url(), ca));
    KubeClusterComponent c = new KubeClusterComponent();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    java.io.PrintStream previous = System.err;
    System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      c.activate(context(), config(Map.of("kubeconfig", kubeconfig.toString())));
      await("a failed attempt", () -> c.status().reason().startsWith("cannot connect: "));
      assertThat(c.status().reason())
          .isEqualTo("cannot connect: NoSuchFileException: " + ca + "; trying again");
      // The next attempt comes after CONNECT_RETRY_FIRST and fails the same way.
      Thread.sleep(KubeClusterComponent.CONNECT_RETRY_FIRST.toMillis() * 2);
      writeCertificate(ca);
      await("the cluster seen", () -> c.snapshot().nodes().size() == 1);
      // The watches open after the lists: ready once every one is up.
      await("ready", () -> c.status().isReady());
    } finally {
      System.setErr(previous);
      c.deactivate();
    }
    assertThat(err.toString(java.nio.charset.StandardCharsets.UTF_8).lines())
        .as("the reason, printed once")
        .containsExactly(
            "error: kubernetes cluster "
                + kubeconfig
                + ": cannot connect: NoSuchFileException: "
                + ca);
  }

  /** A self-signed certificate in PEM, made with the JDK's keytool, moved into place at once. */
  private void writeCertificate(Path target) throws Exception {
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Path store = dir.resolve("ca.p12");
    Path pem = dir.resolve("ca.pem.part");
    for (List<String> command :
        List.of(
            List.of(
                keytool.toString(),
                "-genkeypair",
                "-alias",
                "ca",
                "-keyalg",
                "EC",
                "-dname",
                "CN=test",
                "-keystore",
                store.toString(),
                "-storepass",
                "changeit",
                "-storetype",
                "PKCS12"),
            List.of(
                keytool.toString(),
                "-exportcert",
                "-rfc",
                "-alias",
                "ca",
                "-keystore",
                store.toString(),
                "-storepass",
                "changeit",
                "-file",
                pem.toString()))) {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes());
      assertThat(p.waitFor()).as(out).isZero();
    }
    Files.move(pem, target, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  @Test
  void withLeaderElection_onlyTheLeaderSeesTheCluster() throws Exception {
    api.node("n1", "4", "8Gi");
    KubeClusterComponent a = new KubeClusterComponent();
    KubeClusterComponent b = new KubeClusterComponent();
    a.activate(context(), config(Map.of("identity", "a", "leader_elect", true)));
    b.activate(context(), config(Map.of("identity", "b", "leader_elect", true)));
    try {
      await("one leader", () -> a.snapshot().nodes().size() + b.snapshot().nodes().size() == 1);
      KubeClusterComponent leader = a.snapshot().nodes().isEmpty() ? b : a;
      KubeClusterComponent follower = leader == a ? b : a;
      assertThat(follower.snapshot().nodes()).isEmpty();
      assertThat(leader.status().isReady()).isTrue();
      String leaderName = leader == a ? "a" : "b";
      await(
          "the follower stands by, naming the leader",
          () ->
              follower.status().state() == SourceStatus.State.STANDBY
                  && follower.status().reason().contains("the leader is " + leaderName));
      leader.deactivate();
      assertThat(leader.status().state()).isEqualTo(SourceStatus.State.NOT_READY);
      await("the follower takes over", () -> follower.snapshot().nodes().size() == 1);
    } finally {
      a.deactivate();
      b.deactivate();
    }
  }
}
