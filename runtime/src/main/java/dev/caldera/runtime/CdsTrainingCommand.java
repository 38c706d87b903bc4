package dev.caldera.runtime;

import dev.caldera.runtime.run.OsgiLauncher;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/**
 * {@code caldera cds-training} (hidden): the build runs it once with {@code
 * -XX:ArchiveClassesAtExit} to make the class data sharing archive {@code lib/caldera.jsa} that
 * bin/caldera starts the JVM with. It runs the short commands whose start-up the archive is for, in
 * this JVM, on the distribution's own demo scenario and policies, so every class they load is in
 * the archive. Then it runs {@code caldera run} twice, a few seconds each: on the embedded cluster,
 * and with {@code --kubeconfig} against a {@link TrainingApiServer} on loopback, until it has bound
 * the server's gangs. The JVM archives the classes Felix's bundle loaders define too, and uses them
 * when a bundle defines the same bytes again: a start against a real cluster then maps most of
 * fabric8, Jackson and the scheduler instead of reading and verifying them. Output is discarded; a
 * command that does not end as expected fails the training (and the build) rather than leaving a
 * silently thin archive.
 */
@Command(
    name = "cds-training",
    hidden = true,
    description = "Run the short commands once, for the build's class data sharing archive.")
final class CdsTrainingCommand implements Callable<Integer> {

  @ParentCommand CalderaCommand parent;

  private record Step(int expectedCode, List<String> args) {}

  /**
   * How long each training run schedules; the run against the training API server is given the
   * longer time again if it bound nothing in the shorter (a slow or busy build machine).
   */
  private static final List<String> RUN_DURATIONS = List.of("3s", "30s");

  private static List<String> trainRun(Path home, PrintStream discard) {
    Path work;
    try {
      work = Files.createTempDirectory("caldera-cds-training");
    } catch (IOException e) {
      return List.of("cannot make a directory for the training runs: " + e);
    }
    List<String> failures = new ArrayList<>();
    try {
      failures.addAll(
          run(new Step(0, runArgs(RUN_DURATIONS.get(0), work.resolve("embedded.log"))), discard));
      try (TrainingApiServer api = TrainingApiServer.start(home.resolve("conf/demo"), 3)) {
        Path kubeconfig = work.resolve("kubeconfig");
        api.writeKubeconfig(kubeconfig);
        for (String duration : RUN_DURATIONS) {
          List<String> args = new ArrayList<>(runArgs(duration, work.resolve("kube.log")));
          args.addAll(List.of("--kubeconfig", kubeconfig.toString()));
          failures.addAll(run(new Step(0, args), discard));
          if (!failures.isEmpty() || api.binds() > 0) {
            break;
          }
        }
        if (failures.isEmpty() && api.binds() == 0) {
          failures.add("caldera run --kubeconfig bound nothing on the training API server");
        }
      }
    } catch (IOException | RuntimeException e) {
      failures.add("the training API server: " + e.toString().lines().findFirst().orElse(""));
    }
    if (!failures.isEmpty()) {
      // Their output went nowhere; their logs are kept for whoever reads the build's failure.
      failures.add("the training runs' logs are in " + work);
      return failures;
    }
    OsgiLauncher.deleteRecursively(work);
    return failures;
  }

  private static List<String> runArgs(String duration, Path log) {
    return List.of(
        "run",
        "--duration",
        duration,
        "--admin-address",
        "off",
        "--status-interval",
        "0",
        "--log",
        log.toString());
  }

  /** Runs {@code step} in this JVM; its failure, if it did not end with the code expected. */
  private static List<String> run(Step step, PrintStream discard) {
    int code =
        CalderaCommand.commandLine(discard, discard).execute(step.args().toArray(String[]::new));
    return code == step.expectedCode()
        ? List.of()
        : List.of(
            "caldera "
                + String.join(" ", step.args())
                + " exited with "
                + code
                + ", expected "
                + step.expectedCode());
  }

  @Override
  public Integer call() {
    Path home = RunCommand.home();
    String demo = home.resolve("scenarios/demo.yaml").toString();
    String policies = home.resolve("policies").toString();
    List<Step> steps =
        List.of(
            new Step(0, List.of("--help")),
            new Step(0, List.of("simulate", "--check", demo)),
            new Step(0, List.of("simulate", demo)),
            new Step(2, List.of("simulate", home.resolve("no-such-scenario.yaml").toString())),
            new Step(0, List.of("policy", "check", policies)),
            new Step(0, List.of("bench", "--nodes", "20", "--pods", "200", "-o", "json")));
    List<String> failures = new ArrayList<>();
    PrintStream discard =
        new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
    for (Step step : steps) {
      failures.addAll(run(step, discard));
    }
    // caldera run also reports on the process's own streams (its status and the cluster's
    // progress), which the build's log does not need.
    PrintStream out = System.out;
    PrintStream err = System.err;
    System.setOut(discard);
    System.setErr(discard);
    try {
      failures.addAll(trainRun(home, discard));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    failures.forEach(f -> parent.err().println("error: cds-training: " + f));
    return failures.isEmpty() ? 0 : 1;
  }
}
