package dev.caldera.kube;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Runs the {@code kubectl} on the {@code PATH}, for the tests of {@code runtime/deploy/}. */
final class Kubectl {

  /** Generous: on a loaded 2-core build machine one dry run has taken over a minute. */
  private static final long TIMEOUT_SECONDS = 180;

  /** kubectl 1.21 was the first with a kustomize (v4) that takes directories as resources. */
  private static final int FIRST_KUSTOMIZE_MINOR = 21;

  /** Why the kustomize tests cannot run here, shown when they are skipped. */
  static final String KUSTOMIZE_MISSING =
      "kubectl 1.21 or later is not on the PATH: the overlays of runtime/deploy/ are rendered with"
          + " `kubectl kustomize` (install kubectl, e.g. Debian's kubectl package or the"
          + " Kubernetes release binary)";

  private Kubectl() {}

  /** The outcome of one kubectl run. */
  record Run(int exitCode, String stdout, String stderr) {
    /** stdout, then stderr. */
    String output() {
      return stdout + stderr;
    }
  }

  static boolean onPath() {
    return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        .filter(dir -> !dir.isEmpty())
        .anyMatch(dir -> Files.isExecutable(Path.of(dir, "kubectl")));
  }

  /** Whether {@code kubectl kustomize} can render the overlays (kubectl 1.21 or later). */
  static boolean kustomizes(Path work) {
    if (!onPath()) {
      return false;
    }
    try {
      Run version = run(work, "version", "--client");
      Matcher m = Pattern.compile("v1\\.(\\d+)\\.").matcher(version.output());
      return version.exitCode() == 0
          && m.find()
          && Integer.parseInt(m.group(1)) >= FIRST_KUSTOMIZE_MINOR;
    } catch (IOException e) {
      return false;
    }
  }

  /** {@code kubectl kustomize DIR}: the rendered YAML; fails the test when kubectl fails. */
  static String kustomize(Path work, Path directory) throws IOException {
    Run run = run(work, "kustomize", directory.toString());
    if (run.exitCode() != 0) {
      fail("kubectl kustomize %s failed:%n%s", directory, run.output());
    }
    return run.stdout();
  }

  /** Runs kubectl with {@code args}; output goes through a file in {@code work}. */
  static Run run(Path work, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add("kubectl");
    command.addAll(List.of(args));
    Path output = Files.createTempFile(work, "kubectl", ".out");
    Path errors = Files.createTempFile(work, "kubectl", ".err");
    Process kubectl =
        new ProcessBuilder(command)
            .redirectOutput(output.toFile())
            .redirectError(errors.toFile())
            .start();
    try {
      if (!kubectl.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        kubectl.destroyForcibly();
        fail(
            "kubectl %s did not finish in %d s:%n%s%s",
            command, TIMEOUT_SECONDS, read(output), read(errors));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted waiting for kubectl", e);
    }
    return new Run(kubectl.exitValue(), read(output), read(errors));
  }

  private static String read(Path file) throws IOException {
    return Files.readString(file);
  }
}
