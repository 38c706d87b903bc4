package dev.caldera.itests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.AfterEach;
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

  @TempDir Path tmp;

  private final HttpClient http = HttpClient.newHttpClient();
  private RunningCaldera caldera;

  @AfterEach
  void stop() {
    if (caldera != null) {
      caldera.close();
    }
  }

  @Test
  void aGeneratedPluginProject_buildsAndTests_andItsJarServesSessionsInCalderaRun()
      throws Exception {
    Path repository = Path.of(System.getProperty("caldera.m2.repository"));
    String version = System.getProperty("caldera.version");
    List<String> installed =
        ReactorArtifacts.install(
            Path.of(System.getProperty("caldera.project.dir")), version, repository);
    assertThat(installed)
        .contains(
            "caldera-parent",
            "caldera-api",
            "caldera-testkit",
            "caldera-paxexam",
            "caldera-runtime",
            "caldera-plugin-archetype");

    long started = System.nanoTime();
    Path work = Files.createDirectories(tmp.resolve("work"));
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
    String build = mvn(project, "verify.log", "verify");
    long built = System.nanoTime();
    System.out.printf(
        "PluginArchetypeIT: archetype:generate %.1f s, mvn verify of the generated project %.1f s%n",
        (generated - started) / 1e9, (built - generated) / 1e9);

    assertThat(build)
        .contains(
            "Tests run: 5, Failures: 0, Errors: 0, Skipped: 0, Time elapsed",
            "in com.example.myplugin.PreferLabelPluginTest",
            "PASS tiers: critical work reclaims batch work of a reclaimable queue",
            "4 passed, 0 failed",
            "in com.example.myplugin.PreferLabelPluginIT",
            "BUILD SUCCESS");
    assertThat(build)
        .containsPattern(
            "Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: [0-9.]+ s -- in com.example.myplugin.PreferLabelPluginIT");
    byte[] jar = Files.readAllBytes(project.resolve("target/my-plugin-1.0.0.jar"));

    // caldera run with a conf naming the plugin: scheduling holds until it is installed.
    Path home = RunningCaldera.copyOfDistribution(tmp);
    Path conf = tmp.resolve("scheduler.conf");
    Files.writeString(
        conf,
        Files.readString(home.resolve("conf/scheduler.conf"))
            + "  - name: preferlabel\n    arguments: {label: example.com/preferred, weight: 5}\n");
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
  private String mvn(Path dir, String log, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("maven.home"), "bin", "mvn").toString());
    command.add("-B");
    command.add("-Dmaven.repo.local=" + System.getProperty("caldera.m2.repository"));
    command.addAll(List.of(args));
    Path output = tmp.resolve(log);
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
    String text = Files.readString(output);
    if (p.exitValue() != 0) {
      throw new AssertionError(
          String.join(" ", command)
              + " in "
              + dir
              + " exited with "
              + p.exitValue()
              + "; its output ends:\n"
              + text.substring(Math.max(0, text.length() - 8000)));
    }
    return text;
  }
}
