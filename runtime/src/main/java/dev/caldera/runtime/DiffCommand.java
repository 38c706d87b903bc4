package dev.caldera.runtime;

import dev.caldera.framework.conf.PluginOption;
import dev.caldera.framework.conf.SchedulerConf;
import dev.caldera.framework.conf.Tier;
import dev.caldera.sim.ReportFormat;
import dev.caldera.sim.ReportWriter;
import dev.caldera.sim.Scenario;
import dev.caldera.sim.ScenarioDiff;
import dev.caldera.sim.ScenarioException;
import dev.caldera.sim.ScenarioLoader;
import dev.caldera.sim.ScenarioReport;
import dev.caldera.sim.ScenarioRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code caldera diff}: runs the same cluster twice, as it is and under a change (another conf or
 * policy set, or a second scenario file), and prints what the change decides differently. Exits 0
 * when nothing changes and 1 when something does, so a CI job can gate a policy change on it; 2 on
 * a usage error, 3 when a file cannot be run.
 */
@Command(
    name = "diff",
    mixinStandardHelpOptions = true,
    description = {
      "Run the same cluster as it is and under a change, and print what is decided differently.",
      "BEFORE is a scenario file or a snapshot of a cluster. The change is a second file AFTER"
          + " (the same objects under another conf or policies), or --conf and --policies.",
      "Exit status: 0 nothing changes, 1 something changes, 2 usage error, 3 a file cannot run."
    })
final class DiffCommand implements Callable<Integer> {

  static final int CANNOT_RUN = 3;

  @ParentCommand CalderaCommand parent;

  @Spec CommandSpec spec;

  @Option(
      names = "--conf",
      paramLabel = "FILE",
      description = "The changed run uses this volcano-scheduler.conf.")
  Path conf;

  @Option(
      names = "--policies",
      paramLabel = "DIR",
      description = "The changed run uses the .policy files of this directory.")
  Path policies;

  @Option(
      names = "--base-conf",
      paramLabel = "FILE",
      description = "The run as it is uses this conf instead of the file's own.")
  Path baseConf;

  @Option(
      names = "--base-policies",
      paramLabel = "DIR",
      description =
          "The run as it is uses the .policy files of this directory (e.g. the policies in force).")
  Path basePolicies;

  @Option(
      names = {"-o", "--output"},
      defaultValue = "table",
      paramLabel = "FORMAT",
      description = "Output format: table, json or yaml (default: ${DEFAULT-VALUE}).")
  ReportFormat output;

  @Parameters(index = "0", paramLabel = "BEFORE", description = "The cluster as it is.")
  Path before;

  @Parameters(
      index = "1",
      arity = "0..1",
      paramLabel = "AFTER",
      description = "The cluster under the change (default: BEFORE with --conf/--policies).")
  Path after;

  @Override
  public Integer call() {
    Path changed = after == null ? before : after;
    if (after == null && conf == null && policies == null) {
      throw new ParameterException(
          spec.commandLine(), "Nothing to compare: give AFTER, --conf or --policies");
    }
    for (Path p : new Path[] {before, changed}) {
      if (!Files.isRegularFile(p)) {
        throw new ParameterException(spec.commandLine(), "No such file: " + p);
      }
    }
    ScenarioLoader.Replay baseReplay = ReplayOptions.read(spec, baseConf, basePolicies);
    ScenarioLoader.Replay changedReplay = ReplayOptions.read(spec, conf, policies);
    ScenarioReport a;
    ScenarioReport b;
    try {
      a = run(before, baseReplay);
      b = run(changed, changedReplay);
    } catch (ScenarioException e) {
      parent.err().println("error: " + e.getMessage());
      return CANNOT_RUN;
    } catch (RuntimeException e) {
      parent.err().println("error: " + Errors.describe(e));
      if (parent.stacktrace) {
        e.printStackTrace(parent.err());
      }
      return CANNOT_RUN;
    }
    ScenarioDiff diff = ScenarioDiff.between(a, b);
    ReportWriter.write(diff, output, parent.out());
    return diff.changed() ? 1 : 0;
  }

  private static ScenarioReport run(Path file, ScenarioLoader.Replay replay)
      throws ScenarioException {
    Scenario s = ScenarioLoader.load(file, replay);
    // The policy plugin's debug events name the rule behind each eviction and each pod spared,
    // which the diff shows beside a changed eviction; they add events, never decisions.
    Scenario scenario = s.withConf(withPolicyDebug(s.conf()));
    // A fresh registry per run: plugin factories keep state across sessions.
    return new ScenarioRunner(Plugins.registry()).run(scenario);
  }

  /** {@code conf} with {@code debug: true} for every {@code policy} plugin entry. */
  static SchedulerConf withPolicyDebug(SchedulerConf conf) {
    List<Tier> tiers = new ArrayList<>();
    for (Tier t : conf.tiers()) {
      List<PluginOption> plugins = new ArrayList<>();
      for (PluginOption p : t.plugins()) {
        if (p.name().equals("policy")) {
          Map<String, Object> arguments = new LinkedHashMap<>(p.arguments());
          arguments.put("debug", true);
          p = new PluginOption(p.name(), p.enabled(), arguments, p.optional());
        }
        plugins.add(p);
      }
      tiers.add(new Tier(plugins));
    }
    return new SchedulerConf(conf.actions(), tiers, conf.configurations());
  }
}
