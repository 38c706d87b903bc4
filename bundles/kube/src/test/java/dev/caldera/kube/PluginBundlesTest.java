package dev.caldera.kube;

import static dev.caldera.kube.MockApi.await;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.caldera.api.PluginFactory;
import dev.caldera.framework.Scheduler;
import dev.caldera.framework.conf.SchedulerConf;
import dev.caldera.kube.testplugin.LastNodeFirstFactory;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code PluginBundle} objects on the mock API server, converged to by two replicas in one JVM,
 * each with its own deploy directory, plugin registry and scheduler (as two pods each with its own
 * Felix): the bundle is fetched from a loopback HTTP server, verified, installed by both, reported
 * per replica in the status and in events, and after the leader stops the other replica serves
 * sessions with it.
 */
class PluginBundlesTest {

  private static final ResourceDefinitionContext PLUGIN_BUNDLES = PluginBundles.PLUGIN_BUNDLES;

  private static final String NS = "caldera-system";

  /** The conf names the bundle's plugin: without it, scheduling holds. */
  private static final String CONF =
      """
      actions: "enqueue, allocate, backfill"
      tiers:
      - plugins: [{name: priority}, {name: gang}, {name: conformance}]
      - plugins: [{name: predicates}, {name: proportion}, {name: lastnode}]
      """;

  private static final LeaderElection.Options LEASE =
      new LeaderElection.Options(
          "kube-system",
          "caldera-scheduler",
          Duration.ofMillis(1500),
          Duration.ofMillis(1000),
          Duration.ofMillis(100));

  private static final PluginBundles.Timings TIMINGS =
      new PluginBundles.Timings(Duration.ofSeconds(5), Duration.ofMillis(500));

  private final MockApi api = new MockApi();
  private final Map<String, byte[]> served = new ConcurrentHashMap<>();
  private final HttpServer http;

  @TempDir Path tmp;

  PluginBundlesTest() throws IOException {
    http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    http.createContext(
        "/",
        exchange -> {
          byte[] body = served.get(exchange.getRequestURI().getPath());
          if (body == null) {
            exchange.sendResponseHeaders(404, -1);
          } else {
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
          }
          exchange.close();
        });
    http.start();
  }

  @AfterEach
  void stop() {
    http.stop(0);
    api.close();
  }

  /** One replica: its deploy directory and registry (its "Felix"), cluster, election, loop. */
  private final class Replica implements AutoCloseable {
    final Path deploy;
    final DeployDirRegistry registry;
    final KubeCluster cluster;
    final LeaderElection election;
    final KubeRunner runner;
    final PluginBundles bundles;

    Replica(String identity) throws Exception {
      deploy = Files.createDirectories(tmp.resolve(identity));
      registry = new DeployDirRegistry(deploy);
      cluster = api.cluster(identity);
      bundles =
          PluginBundles.start(
              cluster,
              NS,
              deploy,
              (file, symbolicName, version) ->
                  registry.loaded(file).map(p -> new PluginBundles.Outcome(true, "ACTIVE")),
              TIMINGS);
      election = cluster.leaderElection(LEASE);
      SchedulerConf conf = SchedulerConf.parse(CONF, "scheduler.conf");
      runner =
          new KubeRunner(
              cluster,
              new Scheduler(registry),
              () -> conf,
              Duration.ofMillis(50),
              election::isLeader);
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      runner.start();
    }

    @Override
    public void close() {
      runner.close();
      election.close();
      bundles.close();
      cluster.close();
    }
  }

  @Test
  void aListedBundle_isInstalledByBothReplicas_andServesSessionsAfterFailover() throws Exception {
    api.node("n1", "16", "32Gi");
    api.node("n2", "16", "32Gi");
    api.queue("default", 1);
    api.pod("ns1", "first").requests("1", "1Gi").create();
    try (Replica a = new Replica("replica-a");
        Replica b = new Replica("replica-b")) {
      await("a leader", () -> a.election.isLeader() || b.election.isLeader());
      Replica leader = a.election.isLeader() ? a : b;
      Replica follower = leader == a ? b : a;
      await("sessions run", () -> leader.runner.sessions() + leader.runner.failures() > 2);
      // The conf names lastnode, which no replica has yet: scheduling holds.
      assertThat(api.nodeOf("ns1", "first")).isNull();

      byte[] jar = pluginJar("1.0.0");
      String url = serve("/plugins/lastnode-1.0.0.jar", jar);
      create(pluginBundle("lastnode", Map.of("url", url, "sha256", sha256(jar))));

      for (Replica r : List.of(a, b)) {
        await(
            "installed on " + r.cluster.options().identity(),
            Duration.ofSeconds(15),
            () -> "Installed".equals(replicaStatus("lastnode", r).get("state")));
        assertThat(Files.readAllBytes(r.deploy.resolve("pluginbundle-lastnode.jar")))
            .isEqualTo(jar);
        assertThat(r.registry.plugin(LastNodeFirstFactory.NAME)).isPresent();
      }
      Map<String, Object> status = replicaStatus("lastnode", a);
      assertThat(status)
          .containsEntry("bundle", "test.lastnode")
          .containsEntry("version", "1.0.0")
          .containsEntry("sha256", sha256(jar));
      await(
          "the BundleInstalled events",
          Duration.ofSeconds(10),
          () -> events("BundleInstalled").size() >= 2);
      assertThat(events("BundleInstalled")).hasSize(2);
      await("the first pod bound, on the last node", () -> "n2".equals(api.nodeOf("ns1", "first")));

      // The leader stops; the follower, which installed the bundle on its own, schedules with it.
      leader.close();
      await("the follower leading", Duration.ofSeconds(5), follower.election::isLeader);
      api.pod("ns1", "second").requests("1", "1Gi").create();
      await(
          "the second pod bound, on the last node", () -> "n2".equals(api.nodeOf("ns1", "second")));
      assertThat(follower.cluster.counters().bindsSucceeded()).isEqualTo(1);
    }
  }

  @Test
  void aChecksumMismatch_isRefusedWithAnEvent_andNeverInstalled() throws Exception {
    byte[] jar = pluginJar("1.0.0");
    String url = serve("/plugins/lastnode.jar", jar);
    String wrong = sha256("something else".getBytes(StandardCharsets.UTF_8));
    try (Replica a = new Replica("replica-a")) {
      create(pluginBundle("lastnode", Map.of("url", url, "sha256", wrong)));
      await(
          "refused",
          Duration.ofSeconds(10),
          () -> "Refused".equals(replicaStatus("lastnode", a).get("state")));
      assertThat((String) replicaStatus("lastnode", a).get("message"))
          .startsWith("checksum mismatch: " + url + " has SHA-256 " + sha256(jar))
          .contains("spec.sha256 is " + wrong)
          .endsWith("not installed");
      // The event is written on its own queue, after the status.
      await("the event", Duration.ofSeconds(10), () -> !events("ChecksumMismatch").isEmpty());
      List<Event> refused = events("ChecksumMismatch");
      assertThat(refused).hasSize(1);
      assertThat(refused.get(0).getType()).isEqualTo("Warning");
      assertThat(refused.get(0).getRegarding().getName()).isEqualTo("lastnode");
      assertThat(refused.get(0).getNote()).startsWith("replica-a: checksum mismatch");
      // Retries (every 500 ms here) neither install it nor repeat the event.
      Thread.sleep(1500);
      assertThat(events("ChecksumMismatch")).hasSize(1);
      try (var files = Files.list(a.deploy)) {
        assertThat(files).isEmpty();
      }
      assertThat(a.registry.plugin(LastNodeFirstFactory.NAME)).isEmpty();
    }
  }

  @Test
  void removingTheObject_uninstallsTheBundle_andAReplacementIsSwappedIn() throws Exception {
    byte[] v1 = pluginJar("1.0.0");
    byte[] v2 = pluginJar("2.0.0");
    String url1 = serve("/v1.jar", v1);
    String url2 = serve("/v2.jar", v2);
    try (Replica a = new Replica("replica-a")) {
      create(pluginBundle("lastnode", Map.of("url", url1, "sha256", sha256(v1))));
      await(
          "v1",
          Duration.ofSeconds(10),
          () -> "1.0.0".equals(replicaStatus("lastnode", a).get("version")));

      GenericKubernetesResource r = get("lastnode");
      r.getAdditionalProperties().put("spec", Map.of("url", url2, "sha256", sha256(v2)));
      api.kubectl.genericKubernetesResources(PLUGIN_BUNDLES).inNamespace(NS).resource(r).update();
      await(
          "v2",
          Duration.ofSeconds(10),
          () -> "2.0.0".equals(replicaStatus("lastnode", a).get("version")));
      assertThat(Files.readAllBytes(a.deploy.resolve("pluginbundle-lastnode.jar"))).isEqualTo(v2);

      api.kubectl
          .genericKubernetesResources(PLUGIN_BUNDLES)
          .inNamespace(NS)
          .withName("lastnode")
          .delete();
      await(
          "the jar removed",
          Duration.ofSeconds(10),
          () -> !Files.exists(a.deploy.resolve("pluginbundle-lastnode.jar")));
      assertThat(a.registry.plugin(LastNodeFirstFactory.NAME)).isEmpty();
      // A file of the prefix that no object names (left from before a restart) goes too; others
      // stay.
      Files.write(a.deploy.resolve("pluginbundle-stale.jar"), v1);
      Files.write(a.deploy.resolve("shipped.jar"), v1);
      await(
          "the stale jar removed",
          Duration.ofSeconds(10),
          () -> !Files.exists(a.deploy.resolve("pluginbundle-stale.jar")));
      assertThat(a.deploy.resolve("shipped.jar")).exists();
    }
  }

  @Test
  void anInvalidSpec_isReportedNamingTheField_andAnUnreachableUrlIsRetried() throws Exception {
    byte[] jar = pluginJar("1.0.0");
    try (Replica a = new Replica("replica-a")) {
      create(pluginBundle("nosum", Map.of("url", "http://127.0.0.1:1/x.jar")));
      create(pluginBundle("later", Map.of("url", http("/later.jar"), "sha256", sha256(jar))));
      await(
          "invalid",
          Duration.ofSeconds(10),
          () -> "Invalid".equals(replicaStatus("nosum", a).get("state")));
      assertThat((String) replicaStatus("nosum", a).get("message"))
          .isEqualTo(
              "PluginBundle nosum: spec.sha256: expected 64 hexadecimal digits (the jar's"
                  + " SHA-256), got null");
      await(
          "failed",
          Duration.ofSeconds(10),
          () -> "Failed".equals(replicaStatus("later", a).get("state")));
      assertThat((String) replicaStatus("later", a).get("message"))
          .contains("HTTP 404")
          .endsWith("(retried)");
      await(
          "the FetchFailed events",
          Duration.ofSeconds(10),
          () -> events("FetchFailed").size() >= 1);
      assertThat(events("FetchFailed")).hasSize(1);
      // Once the URL serves the jar, the periodic retry installs it.
      served.put("/later.jar", jar);
      await(
          "installed",
          Duration.ofSeconds(10),
          () -> "Installed".equals(replicaStatus("later", a).get("state")));
    }
  }

  // ---- fixtures --------------------------------------------------------------------------------

  /** A bundle jar registering {@link LastNodeFirstFactory} in its own META-INF/services. */
  static byte[] pluginJar(String version) throws IOException {
    Manifest m = new Manifest();
    m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    m.getMainAttributes().putValue("Bundle-ManifestVersion", "2");
    m.getMainAttributes().putValue("Bundle-SymbolicName", "test.lastnode");
    m.getMainAttributes().putValue("Bundle-Version", version);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (JarOutputStream out = new JarOutputStream(bytes, m)) {
      out.putNextEntry(new JarEntry("META-INF/services/" + PluginFactory.class.getName()));
      out.write(LastNodeFirstFactory.class.getName().getBytes(StandardCharsets.UTF_8));
      out.closeEntry();
      String entry = LastNodeFirstFactory.class.getName().replace('.', '/') + ".class";
      out.putNextEntry(new JarEntry(entry));
      try (var in = LastNodeFirstFactory.class.getClassLoader().getResourceAsStream(entry)) {
        in.transferTo(out);
      }
      out.closeEntry();
    }
    return bytes.toByteArray();
  }

  private String http(String path) {
    return "http://127.0.0.1:" + http.getAddress().getPort() + path;
  }

  private String serve(String path, byte[] body) {
    served.put(path, body);
    return http(path);
  }

  static String sha256(byte[] b) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
  }

  private static GenericKubernetesResource pluginBundle(String name, Map<String, Object> spec) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion("caldera.dev/v1alpha1")
        .withKind("PluginBundle")
        .withNewMetadata()
        .withName(name)
        .withNamespace(NS)
        .endMetadata()
        .addToAdditionalProperties("spec", spec)
        .build();
  }

  private void create(GenericKubernetesResource r) {
    api.kubectl.genericKubernetesResources(PLUGIN_BUNDLES).inNamespace(NS).resource(r).create();
  }

  private GenericKubernetesResource get(String name) {
    return api.kubectl
        .genericKubernetesResources(PLUGIN_BUNDLES)
        .inNamespace(NS)
        .withName(name)
        .get();
  }

  /** {@code status.replicas.<identity>} of the object, empty while absent. */
  @SuppressWarnings("unchecked")
  private Map<String, Object> replicaStatus(String name, Replica r) {
    GenericKubernetesResource o = get(name);
    Object status = o == null ? null : o.getAdditionalProperties().get("status");
    Object replicas = status instanceof Map<?, ?> s ? s.get("replicas") : null;
    Object mine = replicas instanceof Map<?, ?> m ? m.get(r.cluster.options().identity()) : null;
    return mine instanceof Map<?, ?> x ? (Map<String, Object>) x : Map.of();
  }

  private List<Event> events(String reason) {
    return api.kubectl.events().v1().events().inNamespace(NS).list().getItems().stream()
        .filter(e -> reason.equals(e.getReason()))
        .toList();
  }

  @SuppressWarnings("unused")
  private static Optional<String> none() {
    return Optional.empty();
  }
}
