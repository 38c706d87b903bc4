package dev.caldera.runtime;

import dev.caldera.sim.ExpectationChecker;
import dev.caldera.sim.ReportFormat;
import dev.caldera.sim.ReportWriter;
import dev.caldera.sim.Scenario;
import dev.caldera.sim.ScenarioException;
import dev.caldera.sim.ScenarioLoader;
import dev.caldera.sim.ScenarioReport;
import dev.caldera.sim.ScenarioRunner;
import dev.caldera.sim.SessionReport;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code caldera simulate}: runs scenario files on the embedded in-memory cluster and prints what
 * the scheduler decided.
 *
 * <p>A single file prints its report. Several files (or {@code --check}) also print one {@code PASS
 * name} or {@code FAIL name} line per scenario, each mismatch indented below it, and a final {@code
 * N passed, N failed} line; with {@code --check} and several files only those lines are printed.
 * With {@code --output json|yaml} the verdict lines go to standard error so that standard output
 * holds only report documents. A malformed file prints one {@code error:} line and counts as
 * failed. {@code --conf} and {@code --policies} replay every file under another conf or policy set.
 */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    description = "Run scenario files on the embedded cluster and print the scheduler's decisions.")
final class SimulateCommand implements Callable<Integer> {

  @ParentCommand CalderaCommand parent;

  @Spec CommandSpec spec;

  @Option(
      names = "--check",
      description = "Compare the decisions with each scenario's expect: and fail on any mismatch.")
  boolean check;

  @Option(
      names = {"-o", "--output"},
      defaultValue = "table",
      paramLabel = "FORMAT",
      description = "Report format: table, json or yaml (default: ${DEFAULT-VALUE}).")
  ReportFormat output;

  @Option(
      names = "--explain",
      description =
          "After each report, say why each pod group still pending is pending (its place in line"
              + " and what stopped it, with the numbers).")
  boolean explain;

  @Option(
      names = "--conf",
      paramLabel = "FILE",
      description =
          "Replay under this volcano-scheduler.conf instead of each file's own conf (e.g. a"
              + " snapshot of a cluster under a conf you plan to apply).")
  Path conf;

  @Option(
      names = "--policies",
      paramLabel = "DIR",
      description =
          "Replay with the .policy files of this directory instead of each file's own policies.")
  Path policies;

  @Parameters(
      arity = "1..*",
      paramLabel = "FILE|DIR",
      description = "Scenario files, or directories searched for *.yaml and *.yml files.")
  List<Path> paths;

  /** The last session's waiting pod groups, one line each. */
  private static void explain(ScenarioReport report, PrintStream to) {
    if (report.sessions().isEmpty()) {
      return;
    }
    SessionReport last = report.sessions().get(report.sessions().size() - 1);
    List<String> lines = last.explain();
    to.println(
        "why pending after session "
            + last.index()
            + " of "
            + report.scenario()
            + (lines.isEmpty() ? ": nothing is pending" : ":"));
    lines.forEach(l -> to.println("  " + l));
  }

  @Override
  public Integer call() {
    for (Path p : paths) {
      if (!Files.exists(p)) {
        throw new ParameterException(spec.commandLine(), "No such file or directory: " + p);
      }
    }
    List<Path> files = ScenarioLoader.expand(paths);
    if (files.isEmpty()) {
      throw new ParameterException(
          spec.commandLine(), "No scenario files (*.yaml, *.yml) in: " + paths);
    }
    ScenarioLoader.Replay replay = ReplayOptions.read(spec, conf, policies);
    boolean several = files.size() > 1;
    boolean printReports = !(check && several);
    boolean printVerdicts = check || several;
    PrintStream out = parent.out();
    PrintStream err = parent.err();
    PrintStream verdicts = output == ReportFormat.TABLE ? out : err;

    int passed = 0;
    int failed = 0;
    boolean firstReport = true;
    for (Path file : files) {
      Scenario scenario;
      ScenarioReport report;
      try {
        scenario = ScenarioLoader.load(file, replay);
        // A fresh registry per scenario: factories keep state across sessions (warnings already
        // given, last good policies), which must not leak from one scenario into the next.
        report = new ScenarioRunner(Plugins.registry()).run(scenario);
      } catch (ScenarioException e) {
        err.println("error: " + e.getMessage());
        failed++;
        continue;
      } catch (RuntimeException e) {
        err.println("error: " + file + ": " + Errors.describe(e));
        if (parent.stacktrace) {
          e.printStackTrace(err);
        }
        failed++;
        continue;
      }
      List<String> mismatches = check ? ExpectationChecker.check(scenario, report) : List.of();
      if (printReports) {
        if (!firstReport) {
          out.println(output == ReportFormat.YAML ? "---" : "");
        }
        firstReport = false;
        ReportWriter.write(report.withMismatches(mismatches), output, out, check);
      }
      if (explain) {
        explain(report, output == ReportFormat.TABLE ? out : err);
      }
      if (mismatches.isEmpty()) {
        passed++;
      } else {
        failed++;
      }
      if (printVerdicts) {
        verdicts.println((mismatches.isEmpty() ? "PASS " : "FAIL ") + scenario.name());
        for (String m : mismatches) {
          verdicts.println("  " + m);
        }
      }
    }
    if (printVerdicts) {
      verdicts.println(passed + " passed, " + failed + " failed");
    }
    return failed == 0 ? 0 : 1;
  }
}
