package dev.caldera.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution's {@code caldera load}: the tool and fabric8 are in {@code lib/load/} and only
 * there (not on the command line's class path, {@code lib/}), and {@code bin/caldera load} runs the
 * tool through its own class loader with picocli and Jackson from {@code lib/}.
 */
class LoadCommandIT {

  private static final Path DIST = Path.of("target/caldera");

  @TempDir Path work;

  private record Run(int code, String output) {}

  private Run caldera(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(DIST.resolve("bin/caldera").toString()));
    command.addAll(List.of(args));
    Path output = work.resolve("output");
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().remove("JAVA_OPTS");
    Process p = builder.redirectErrorStream(true).redirectOutput(output.toFile()).start();
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).as("bin/caldera finished").isTrue();
    return new Run(p.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
  }

  private static List<String> jars(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".jar")).toList();
    }
  }

  @Test
  void fabric8IsInLibLoadOnly_andPicocliAndJacksonInLibOnly() throws IOException {
    assumeTrue(Files.isDirectory(DIST.resolve("lib")), "the distribution was not built: " + DIST);
    List<String> lib = jars(DIST.resolve("lib"));
    List<String> load = jars(DIST.resolve("lib/load"));

    assertThat(lib).noneMatch(j -> j.startsWith("kubernetes-") || j.startsWith("caldera-load-"));
    assertThat(load)
        .anyMatch(j -> j.startsWith("caldera-load-"))
        .anyMatch(j -> j.startsWith("kubernetes-client-7"))
        .anyMatch(j -> j.startsWith("kubernetes-httpclient-jdk-"))
        .noneMatch(j -> j.startsWith("picocli-"))
        .noneMatch(j -> j.startsWith("jackson-databind-") || j.startsWith("jackson-core-"))
        .noneMatch(j -> j.contains("vertx") || j.contains("netty"));
    assertThat(lib)
        .anyMatch(j -> j.startsWith("picocli-"))
        .anyMatch(j -> j.startsWith("jackson-databind-"));
  }

  @Test
  void help_listsEveryOptionWithItsDefault() throws Exception {
    assumeTrue(
        Files.isExecutable(DIST.resolve("bin/caldera")), "the distribution was not built: " + DIST);

    Run help = caldera("load", "--help");

    assertThat(help.code()).as(help.output()).isZero();
    assertThat(help.output())
        .startsWith("Usage: caldera load ")
        .contains("--kubeconfig=FILE", "--node-selector", "--scheduler-pid", "--drain")
        .contains("(default: 200)", "(default: 100)", "(default: 60s)", "(default: 10)")
        .doesNotContain("SLF4J");
  }

  @Test
  void anUnreadableKubeconfig_isOneLine_andExitCode2() throws Exception {
    assumeTrue(
        Files.isExecutable(DIST.resolve("bin/caldera")), "the distribution was not built: " + DIST);
    Path missing = work.resolve("nope.kubeconfig");

    Run run = caldera("load", "--kubeconfig", missing.toString());

    assertThat(run.code()).isEqualTo(2);
    assertThat(run.output().lines().toList())
        .containsExactly(
            "caldera load: --kubeconfig: cannot read "
                + missing
                + " (no such file): expected a kubeconfig file");
  }
}
