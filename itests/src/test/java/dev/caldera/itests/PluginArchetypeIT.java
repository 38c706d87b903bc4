package dev.caldera.itests;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plugin written outside this repository, as a user writes one: {@code mvn archetype:generate}
 * from {@code caldera-plugin-archetype} into a temporary directory, {@code mvn verify} of the
 * generated project (its unit test on the test kit, its policy cases, its Pax Exam test running its
 * scenario), then its jar installed into a running {@code caldera run} through the admin API, where
 * it serves sessions; the same jar rewritten to import the next major API version is refused,
 * naming both versions.
 *
 * <p>The nested builds use this build's local repository ({@code caldera.m2.repository}, from
 * {@code settings.localRepository}), into which this build's artifacts are put first (as {@code mvn
 * install} would); what else they need comes from there or from Maven Central.
 */
class PluginArchetypeIT {

  private static final long BUILD_TIMEOUT_MINUTES = 10;
  private static final String TOKEN = "archetype-it";
  private static final ResourceDefinitionContext PLUGIN_BUNDLES =
      new ResourceDefinitionContext.Builder()
          .withGroup("caldera.dev")
          .withVersion("v1alpha1")
          .withKind("PluginBundle")
          .withPlural("pluginbundles")
          .withNamespaced(true)
          .build();

  /** The generated project, built once for both tests. */
  @TempDir static Path build;

  private static byte[] jar;

  @TempDir Path tmp;

  private final HttpClient http = HttpClient.newHttpClient();
  private RunningCaldera caldera;

  @AfterEach
  void stop() {
    if (caldera != null) {
      caldera.close();
    }
  }

  /** archetype:generate, then mvn verify of the generated project: all its tests pass. */
  @BeforeAll
  static void generateAndBuild() throws Exception {
    Path repository = Path.of(System.getProperty("caldera.m2.repository"));
    String version = System.getProperty("caldera.version");
    List<String> installed =
        ReactorArtifacts.install(
            Path.of(System.getProperty("caldera.project.dir")), version, repository);
    assertThat(installed)
        .contains(
            "caldera-parent",
            "caldera-api",
            "caldera-api-support",
            "caldera-testkit",
            "caldera-paxexam",
            "caldera-runtime",
            "caldera-plugin-archetype",
            "caldera-policy-archetype");

    long started = System.nanoTime();
    Path work = Files.createDirectories(build.resolve("work"));
    mvn(
        work,
        "archetype-generate.log",
        "org.apache.maven.plugins:maven-archetype-plugin:"
            + System.getProperty("archetype.version")
            + ":generate",
        "-DarchetypeGroupId=dev.caldera",
        "-DarchetypeArtifactId=caldera-plugin-archetype",
        "-DarchetypeVersion=" + version,
        "-DgroupId=com.example",
        "-DartifactId=my-plugin",
        "-Dversion=1.0.0",
        "-Dpackage=com.example.myplugin");
    long generated = System.nanoTime();
    Path project = work.resolve("my-plugin");
    String output = mvn(project, "verify.log", "verify");
    long built = System.nanoTime();
    System.out.printf(
        "PluginArchetypeIT: archetype:generate %.1f s, mvn verify of the generated project %.1f s%n",
        (generated - started) / 1e9, (built - generated) / 1e9);

    assertThat(output)
        .contains(
            "Tests run: 5, Failures: 0, Errors: 0, Skipped: 0, Time elapsed",
            "in com.example.myplugin.PreferLabelPluginTest",
            "PASS tiers: critical work reclaims batch work of a reclaimable queue",
            "4 passed, 0 failed",
            "BUILD SUCCESS");
    assertThat(output)
        .containsPattern(
            "Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: [0-9.]+ s -- in"
                + " com.example.myplugin.PreferLabelPluginIT");
    jar = Files.readAllBytes(project.resolve("target/my-plugin-1.0.0.jar"));
  }

  @Test
  void theGeneratedJar_installedThroughTheAdminApi_servesSessions_andOneForApi2IsRefused()
      throws Exception {
    // caldera run with a conf naming the plugin: scheduling holds until it is installed.
    Path home = RunningCaldera.copyOfDistribution(tmp);
    Path conf = confNamingThePlugin(home);
    caldera =
        RunningCaldera.start(
            home,
            "--conf",
            conf.toString(),
            "--admin-address",
            "127.0.0.1:0",
            "--admin-token",
            TOKEN,
            "--schedule-period",
            "200ms",
            "--duration",
            "5m");
    String url = caldera.awaitAdminUrl();
    caldera.awaitLine("SchedulingHeld");

    HttpResponse<String> refused = post(url, "my-plugin-api2.jar", forNextMajorApi(jar));
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
    assertThat(refused.body())
        .contains(
            "my-plugin 1.0.0 was built for another Caldera API: it imports dev.caldera.api"
                + " version [2.0.0,3.0.0) and this Caldera exports dev.caldera.api 1.");
    assertThat(home.resolve("deploy/my-plugin-api2.jar")).doesNotExist();

    HttpResponse<String> accepted = post(url, "my-plugin.jar", jar);
    assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(201);
    caldera.awaitLine("PluginLoaded: preferlabel");
    caldera.awaitLine("SchedulingResumed");
    String plugins = awaitPluginServedSessions(url);
    assertThat(plugins).contains("\"bundle\" : \"my-plugin\"", "\"version\" : \"1.0.0\"");
  }

  /**
   * The way to a cluster: the jar served by a repository (a loopback HTTP server), a {@code
   * PluginBundle} object naming its URL and SHA-256 on the fabric8 mock API server (CRUD mode), and
   * {@code caldera run --kubeconfig} on that server fetches it into {@code deploy/}, loads it and
   * schedules with it.
   */
  @Test
  void theGeneratedJar_asAPluginBundleOnTheMockApiServer_isFetchedLoadedAndServesSessions()
      throws Exception {
    HttpServer repository = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    repository.createContext(
        "/my-plugin-1.0.0.jar",
        exchange -> {
          exchange.sendResponseHeaders(200, jar.length);
          exchange.getResponseBody().write(jar);
          exchange.close();
        });
    repository.start();
    KubernetesMockServer server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            new HashMap<>(),
            new KubernetesCrudDispatcher(),
            false);
    server.init();
    Config config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl(server.url("/"))
            .withNamespace("default")
            .withHttp2Disable(true)
            .build();
    try (KubernetesClient kubectl =
        new KubernetesClientBuilder()
            .withConfig(config)
            .withHttpClientFactory(new JdkHttpClientFactory())
            .build()) {
      String sha256 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(jar));
      kubectl
          .genericKubernetesResources(PLUGIN_BUNDLES)
          .inNamespace("default")
          .resource(
              new GenericKubernetesResourceBuilder()
                  .withApiVersion("caldera.dev/v1alpha1")
                  .withKind("PluginBundle")
                  .withNewMetadata()
                  .withName("my-plugin")
                  .withNamespace("default")
                  .endMetadata()
                  .addToAdditionalProperties(
                      "spec",
                      Map.of(
                          "url",
                          "http://127.0.0.1:"
                              + repository.getAddress().getPort()
                              + "/my-plugin-1.0.0.jar",
                          "sha256",
                          sha256))
                  .build())
          .create();
      Path kubeconfig = MockKubeconfig.write(tmp.resolve("kubeconfig"), server.url("/"));

      Path home = RunningCaldera.copyOfDistribution(tmp);
      caldera =
          RunningCaldera.start(
              home,
              "--kubeconfig",
              kubeconfig.toString(),
              // fabric8's mock server streams watches over WebSockets only.
              "--kube-websocket-watches",
              "--conf",
              confNamingThePlugin(home).toString(),
              "--admin-address",
              "127.0.0.1:0",
              "--schedule-period",
              "200ms",
              "--duration",
              "5m");
      String url = caldera.awaitAdminUrl();
      caldera.awaitLine("PluginLoaded: preferlabel");
      assertThat(home.resolve("deploy/pluginbundle-my-plugin.jar")).hasBinaryContent(jar);
      String plugin = awaitPluginServedSessions(url);
      assertThat(plugin).contains("\"bundle\" : \"my-plugin\"", "\"version\" : \"1.0.0\"");
    } finally {
      server.destroy();
      repository.stop(0);
    }
  }

  /**
   * A platform team's policy repository from {@code caldera-policy-archetype}: {@code mvn verify}
   * checks the files and runs the cases; once a rule is broken (a case no longer holds), the build
   * fails naming the case.
   */
  @Test
  void aGeneratedPolicyProject_passesItsCases_andABrokenRuleFailsItsBuild() throws Exception {
    Path work = Files.createDirectories(build.resolve("policy-work"));
    mvn(
        work,
        "policy-generate.log",
        "org.apache.maven.plugins:maven-archetype-plugin:"
            + System.getProperty("archetype.version")
            + ":generate",
        "-DarchetypeGroupId=dev.caldera",
        "-DarchetypeArtifactId=caldera-policy-archetype",
        "-DarchetypeVersion=" + System.getProperty("caldera.version"),
        "-DgroupId=com.example",
        "-DartifactId=our-policies",
        "-Dversion=1.0.0");
    Path project = work.resolve("our-policies");
    long started = System.nanoTime();
    assertThat(mvn(project, "policy-verify.log", "verify"))
        .contains("4 passed, 0 failed", "BUILD SUCCESS");
    System.out.printf(
        "PluginArchetypeIT: mvn verify of the generated policy project %.1f s%n",
        (System.nanoTime() - started) / 1e9);

    Path policy = project.resolve("policies/tiers.policy");
    String rule = "critical may reclaim batch when reclaimee.queue.reclaimable";
    assertThat(policy).content().contains(rule);
    Files.writeString(
        policy,
        Files.readString(policy)
            .replace(rule, "critical may reclaim batch when reclaimee.queue.weight > 100"));
    Build broken = maven(project, "policy-verify-broken.log", "verify");
    assertThat(broken.exitCode()).isNotZero();
    assertThat(broken.output())
        .contains(
            "FAIL tiers: critical work reclaims batch work of a reclaimable queue",
            "BUILD FAILURE");
  }

  /** The distribution's conf with the generated plugin added to its last tier. */
  private Path confNamingThePlugin(Path home) throws IOException {
    Path conf = tmp.resolve("scheduler.conf");
    Files.writeString(
        conf,
        Files.readString(home.resolve("conf/scheduler.conf"))
            + "  - name: preferlabel\n    arguments: {label: example.com/preferred, weight: 5}\n");
    return conf;
  }

  /** /api/plugins once preferlabel has served a session (polled, at most 60 s). */
  private String awaitPluginServedSessions(String url) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(RunningCaldera.TIMEOUT_SECONDS);
    String body = "";
    while (System.nanoTime() < deadline) {
      body = get(url + "api/plugins");
      int at = body.indexOf("\"name\" : \"preferlabel\"");
      if (at >= 0) {
        String entry = body.substring(at, Math.max(at, body.indexOf('}', at)));
        if (entry.matches("(?s).*\"sessionsServed\" : [1-9].*")) {
          return entry;
        }
      }
      Thread.sleep(100); // the next session, every 200 ms
    }
    throw new AssertionError("preferlabel served no session; /api/plugins: " + body);
  }

  private String get(String url) throws IOException, InterruptedException {
    return http.send(
            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString())
        .body();
  }

  private HttpResponse<String> post(String url, String name, byte[] jar)
      throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create(url + "api/bundles?name=" + name))
            .header("Authorization", "Bearer " + TOKEN)
            .POST(HttpRequest.BodyPublishers.ofByteArray(jar))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /**
   * The jar with its import of dev.caldera.api moved to [2.0,3), as a build against API 2 gives.
   */
  private static byte[] forNextMajorApi(byte[] jar) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(jar))) {
      Manifest m = in.getManifest();
      String imports = m.getMainAttributes().getValue("Import-Package");
      String moved =
          imports.replaceFirst(
              "dev\\.caldera\\.api;version=\"[^\"]*\"", "dev.caldera.api;version=\"[2.0,3)\"");
      assertThat(moved)
          .as("Import-Package of the generated jar: %s", imports)
          .isNotEqualTo(imports);
      m.getMainAttributes().putValue("Import-Package", moved);
      try (JarOutputStream j = new JarOutputStream(out, m)) {
        for (JarEntry e = in.getNextJarEntry(); e != null; e = in.getNextJarEntry()) {
          j.putNextEntry(new JarEntry(e.getName()));
          in.transferTo(j);
          j.closeEntry();
        }
      }
    }
    return out.toByteArray();
  }

  /**
   * Runs Maven (this build's, {@code maven.home}) in {@code dir} with this build's local
   * repository; fails with the end of its output unless it exits 0.
   *
   * @return its output
   */
  private static String mvn(Path dir, String log, String... args) throws Exception {
    Build b = maven(dir, log, args);
    if (b.exitCode() != 0) {
      throw new AssertionError(
          "mvn "
              + String.join(" ", args)
              + " in "
              + dir
              + " exited with "
              + b.exitCode()
              + "; its output ends:\n"
              + b.output().substring(Math.max(0, b.output().length() - 8000)));
    }
    return b.output();
  }

  /** A nested Maven run: its exit code and output. */
  private record Build(int exitCode, String output) {}

  private static Build maven(Path dir, String log, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("maven.home"), "bin", "mvn").toString());
    command.add("-B");
    command.add("-Dmaven.repo.local=" + System.getProperty("caldera.m2.repository"));
    if ("offline=true".equals(System.getProperty("caldera.m2.offline"))) {
      command.add("-o"); // as the outer build: from what is already downloaded only
    }
    command.addAll(List.of(args));
    Path output = build.resolve(log);
    Process p =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
    if (!p.waitFor(BUILD_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError(
          String.join(" ", command) + ": not done in " + BUILD_TIMEOUT_MINUTES + " min");
    }
    return new Build(p.exitValue(), Files.readString(output));
  }
}
