package dev.caldera.runtime;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
 * the archive. Their output is discarded; a command that does not end as expected fails the
 * training (and the build) rather than leaving a silently thin archive.
 */
@Command(
    name = "cds-training",
    hidden = true,
    description = "Run the short commands once, for the build's class data sharing archive.")
final class CdsTrainingCommand implements Callable<Integer> {

  @ParentCommand CalderaCommand parent;

  private record Step(int expectedCode, List<String> args) {}

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
      int code =
          CalderaCommand.commandLine(discard, discard).execute(step.args().toArray(String[]::new));
      if (code != step.expectedCode()) {
        failures.add(
            "caldera "
                + String.join(" ", step.args())
                + " exited with "
                + code
                + ", expected "
                + step.expectedCode());
      }
    }
    failures.forEach(f -> parent.err().println("error: cds-training: " + f));
    return failures.isEmpty() ? 0 : 1;
  }
}
