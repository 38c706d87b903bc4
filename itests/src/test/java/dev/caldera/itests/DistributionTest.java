package dev.caldera.itests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The unpacked distribution has its launcher, every jar, the default conf and the demo. */
class DistributionTest {

  private record Run(int code, String output) {}

  private static Run launch(String... args) throws IOException, InterruptedException {
    Path dir = Distribution.dir();
    List<String> command = new ArrayList<>(List.of(dir.resolve("bin/caldera").toString()));
    command.addAll(List.of(args));
    Process p =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    boolean done = p.waitFor(2, TimeUnit.MINUTES);
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(done).as("bin/caldera finished; output so far:%n%s", output).isTrue();
    return new Run(p.exitValue(), output);
  }

  @Test
  void layout_hasLauncherConfAndDemo() {
    Path dir = Distribution.dir();

    assertThat(dir.resolve("bin/caldera")).isRegularFile().isExecutable();
    assertThat(dir.resolve("conf/scheduler.conf")).isRegularFile();
    assertThat(dir.resolve("scenarios/demo.yaml")).isRegularFile();
  }

  @Test
  void lib_holdsTheRuntimeAndEveryBundleAndLibrary() throws IOException {
    List<String> jars;
    try (Stream<Path> files = Files.list(Distribution.dir().resolve("lib"))) {
      jars = files.map(p -> p.getFileName().toString()).sorted().toList();
    }

    for (String prefix :
        List.of(
            "caldera-runtime-",
            "caldera-api-",
            "caldera-framework-",
            "caldera-admission-",
            "caldera-sim-",
            "caldera-plugin-priority-",
            "caldera-plugin-gang-",
            "caldera-plugin-conformance-",
            "caldera-plugin-drf-",
            "caldera-plugin-proportion-",
            "caldera-plugin-predicates-",
            "caldera-plugin-nodeorder-",
            "caldera-plugin-binpack-",
            "caldera-plugin-sla-",
            "caldera-plugin-capacity-",
            "caldera-plugin-capacity-card-",
            "caldera-plugin-overcommit-",
            "caldera-plugin-pdb-",
            "caldera-plugin-cdp-",
            "caldera-plugin-nodegroup-",
            "caldera-plugin-usage-",
            "caldera-plugin-resourcequota-",
            "caldera-plugin-task-topology-",
            "caldera-plugin-extender-",
            "caldera-plugin-resource-strategy-fit-",
            "caldera-plugin-policy-",
            "caldera-dsl-",
            "antlr4-runtime-",
            "picocli-",
            "jackson-databind-",
            "jackson-dataformat-yaml-")) {
      assertThat(jars).as("lib/ jars").anyMatch(j -> j.startsWith(prefix) && j.endsWith(".jar"));
    }
    assertThat(jars).as("the test kit is for tests only").noneMatch(j -> j.contains("testkit"));
  }

  /**
   * Declarative Services looks up Configuration Admin on a plugin bundle's behalf for components
   * that may take a configuration, and SCR 2.2.18 keeps one such use after the bundle is gone
   * (about 10 KB per plugin swap): plugins take their arguments from the scheduler conf instead.
   */
  @Test
  void everyPluginComponent_ignoresConfigurationAdmin() throws IOException {
    List<Path> plugins;
    try (Stream<Path> files = Files.list(Distribution.dir().resolve("deploy"))) {
      plugins = files.filter(f -> f.toString().endsWith(".jar")).sorted().toList();
    }
    assertThat(plugins).hasSizeGreaterThan(10);
    for (Path jar : plugins) {
      try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(jar.toFile())) {
        List<String> components =
            zip.stream()
                .filter(e -> e.getName().startsWith("OSGI-INF/") && e.getName().endsWith(".xml"))
                .map(
                    e -> {
                      try (var in = zip.getInputStream(e)) {
                        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                      } catch (IOException ex) {
                        throw new java.io.UncheckedIOException(ex);
                      }
                    })
                .toList();
        assertThat(components).as("components of %s", jar.getFileName()).isNotEmpty();
        assertThat(components)
            .as("components of %s", jar.getFileName())
            .allSatisfy(xml -> assertThat(xml).contains("configuration-policy=\"ignore\""));
      }
    }
  }

  @Test
  void launcher_printsTheVersion() throws Exception {
    Run run = launch("--version");

    assertThat(run.code()).as(run.output()).isZero();
    assertThat(run.output()).startsWith("caldera ");
  }

  @Test
  void launcher_reportsAMissingFileAsAUsageError() throws Exception {
    Run run = launch("simulate", "no-such-scenario.yaml");

    assertThat(run.code()).as(run.output()).isEqualTo(2);
    assertThat(run.output()).contains("No such file or directory: no-such-scenario.yaml");
  }

  @Test
  void launcher_checksTheDemo() throws Exception {
    Run run = launch("simulate", "--check", "scenarios/demo.yaml");

    assertThat(run.code()).as(run.output()).isZero();
    assertThat(run.output().lines()).last().isEqualTo("1 passed, 0 failed");
  }
}
