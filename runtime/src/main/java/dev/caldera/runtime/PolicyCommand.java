package dev.caldera.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.caldera.api.Session;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.dsl.CompileResult;
import dev.caldera.dsl.Decision;
import dev.caldera.dsl.Diagnostic;
import dev.caldera.dsl.DiagnosticCode;
import dev.caldera.dsl.Policy;
import dev.caldera.dsl.PolicyCompiler;
import dev.caldera.dsl.SessionPolicyContext;
import dev.caldera.framework.SessionViews;
import dev.caldera.runtime.policy.CaseException;
import dev.caldera.runtime.policy.CaseRunner;
import dev.caldera.runtime.policy.CaseWorld;
import dev.caldera.runtime.policy.PolicyCase;
import dev.caldera.runtime.policy.PolicyCases;
import dev.caldera.sim.EmbeddedCluster;
import dev.caldera.sim.Scenario;
import dev.caldera.sim.ScenarioException;
import dev.caldera.sim.ScenarioLoader;
import dev.caldera.sim.TextFiles;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code caldera policy}: check, test and explain reclaim policies ({@code .policy} files).
 *
 * <p>Exit codes: 0 success, 1 a policy has errors or a case failed, 2 a usage error.
 */
@Command(
    name = "policy",
    mixinStandardHelpOptions = true,
    description = "Check, test and explain reclaim policies (.policy files).",
    subcommands = {
      PolicyCommand.Check.class,
      PolicyCommand.Test.class,
      PolicyCommand.Explain.class
    })
final class PolicyCommand implements Runnable {

  @ParentCommand CalderaCommand parent;

  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Missing command: check, test or explain");
  }

  /** {@code *.policy} files: the files given, and those under the directories given, sorted. */
  static List<Path> policyFiles(CommandSpec spec, List<Path> paths) {
    List<Path> files = new ArrayList<>();
    for (Path p : paths) {
      if (!Files.exists(p)) {
        throw new ParameterException(spec.commandLine(), "No such file or directory: " + p);
      }
      if (Files.isDirectory(p)) {
        try (Stream<Path> walk = Files.walk(p)) {
          walk.filter(f -> f.toString().endsWith(".policy") && Files.isRegularFile(f))
              .sorted()
              .forEach(files::add);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      } else if (p.toString().endsWith(".cases.yaml")) {
        String name = p.getFileName().toString();
        files.add(
            p.resolveSibling(
                name.substring(0, name.length() - ".cases.yaml".length()) + ".policy"));
      } else {
        files.add(p);
      }
    }
    if (files.isEmpty()) {
      throw new ParameterException(spec.commandLine(), "No .policy files in: " + paths);
    }
    return List.copyOf(new TreeSet<>(files));
  }

  /** Larger files are refused unread (the language reads at most 1,000,000 characters). */
  static final long MAX_READ_BYTES = 4_000_000;

  /** A file that cannot be compiled at all: one diagnostic at its start. */
  private static CompileResult unreadable(Path f, DiagnosticCode code, String message) {
    return new CompileResult(
        f.toString(),
        "",
        null,
        null,
        List.of(new Diagnostic(code, f.toString(), 1, 1, 1, message, "")));
  }

  /** Compiles the files, failing later files that reuse a policy name. */
  static List<CompileResult> compile(List<Path> files) {
    List<CompileResult> results = new ArrayList<>();
    for (Path f : files) {
      String text;
      try {
        text = TextFiles.read(f, MAX_READ_BYTES);
      } catch (TextFiles.NotReadException e) {
        results.add(unreadable(f, DiagnosticCode.TOO_LARGE, e.getMessage()));
        continue;
      } catch (CharacterCodingException e) {
        results.add(
            unreadable(
                f, DiagnosticCode.NOT_UTF8, "not UTF-8 text (policy files are read as UTF-8)"));
        continue;
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + f, e);
      }
      results.add(PolicyCompiler.compile(f.toString(), text));
    }
    return PolicyCompiler.withUniqueNames(results);
  }

  /** {@code caldera policy check FILE…}. */
  @Command(
      name = "check",
      mixinStandardHelpOptions = true,
      description =
          "Parse and check policies without loading them: prints every error with its"
              + " file:line:column, the line and a caret; exit 1 if any.")
  static final class Check implements Callable<Integer> {

    @ParentCommand PolicyCommand policy;

    @Spec CommandSpec spec;

    @Parameters(
        arity = "1..*",
        paramLabel = "FILE|DIR",
        description = "Policy files, or directories searched for *.policy files.")
    List<Path> paths;

    @Override
    public Integer call() {
      PrintStream out = policy.parent.out();
      int errors = 0;
      for (CompileResult r : compile(policyFiles(spec, paths))) {
        if (r.ok()) {
          out.println(r.fileName() + ": ok (policy " + r.policyName() + ")");
        } else {
          out.print(r.render());
          errors += r.diagnostics().size();
        }
      }
      if (errors > 0) {
        out.println(errors + (errors == 1 ? " error" : " errors"));
      }
      return errors == 0 ? 0 : 1;
    }
  }

  /** {@code caldera policy test DIR|FILE…}. */
  @Command(
      name = "test",
      mixinStandardHelpOptions = true,
      description =
          "Run the cases in <name>.cases.yaml beside each policy; prints PASS/FAIL per case and"
              + " 'N passed, N failed'.")
  static final class Test implements Callable<Integer> {

    @ParentCommand PolicyCommand policy;

    @Spec CommandSpec spec;

    @Parameters(
        arity = "1..*",
        paramLabel = "DIR|FILE",
        description = "Policy files, their .cases.yaml files, or directories of them.")
    List<Path> paths;

    @Override
    public Integer call() {
      PrintStream out = policy.parent.out();
      int passed = 0;
      int failed = 0;
      for (CompileResult r : compile(policyFiles(spec, paths))) {
        Path file = Path.of(r.fileName());
        String base = file.getFileName().toString().replaceFirst("\\.policy$", "");
        Path casesFile = file.resolveSibling(base + ".cases.yaml");
        if (!r.ok()) {
          out.println("FAIL " + r.fileName() + ": the policy has errors");
          out.print(r.render().indent(4));
          failed++;
          continue;
        }
        if (!Files.exists(casesFile)) {
          out.println("note: " + r.fileName() + " has no cases (" + casesFile + ")");
          continue;
        }
        List<PolicyCase> cases;
        try {
          cases = PolicyCases.load(casesFile);
        } catch (CaseException e) {
          out.println("FAIL " + e.getMessage());
          failed++;
          continue;
        }
        for (PolicyCase c : cases) {
          String label = r.policyName() + ": " + c.name();
          CaseRunner.Result result;
          try {
            result = CaseRunner.run(r.policy(), c);
          } catch (CaseException e) {
            out.println("FAIL " + label + "\n    " + casesFile + ": " + e.getMessage());
            failed++;
            continue;
          }
          if (result.passed()) {
            out.println("PASS " + label);
            passed++;
          } else {
            out.println("FAIL " + label);
            out.println("    " + result.problem());
            if (result.decision() != null) {
              out.print(result.decision().describe().indent(4));
            }
            failed++;
          }
        }
      }
      out.println(passed + " passed, " + failed + " failed");
      return failed == 0 ? 0 : 1;
    }
  }

  /** The subjects of {@code explain}: a reclaim pair or a preemptive queue and task. */
  static final class Subjects {
    @ArgGroup(exclusive = false, multiplicity = "1")
    Reclaim reclaim;

    @ArgGroup(exclusive = false, multiplicity = "1")
    Preemptive preemptive;
  }

  static final class Reclaim {
    @Option(
        names = "--reclaimer",
        required = true,
        paramLabel = "YAML",
        description =
            "The reclaiming task, as in a cases file, e.g. '{owner: Deployment, queue: q1}'.")
    String reclaimer;

    @Option(
        names = "--candidate",
        required = true,
        paramLabel = "YAML",
        description = "The candidate victim, e.g. '{owner: Job, queue: q2}'.")
    String candidate;
  }

  static final class Preemptive {
    @Option(
        names = "--queue",
        required = true,
        paramLabel = "NAME",
        description = "The queue a preemptive rule is asked about.")
    String queue;

    @Option(
        names = "--task",
        required = true,
        paramLabel = "YAML",
        description = "The task it would reclaim for, e.g. '{queue: q1, request: {cpu: 2}}'.")
    String task;
  }

  /** {@code caldera policy explain FILE --reclaimer … --candidate …}. */
  @Command(
      name = "explain",
      mixinStandardHelpOptions = true,
      description =
          "Say which rule decides a reclaimer and candidate (or a queue and task), with its"
              + " file:line, and how each was classified.")
  static final class Explain implements Callable<Integer> {

    @ParentCommand PolicyCommand policy;

    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "The policy file.")
    Path file;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Subjects subjects;

    @Option(
        names = "--queues",
        paramLabel = "YAML",
        description = "Queues by name, as in a cases file, e.g. '{q2: {reclaimable: true}}'.")
    String queues;

    @Option(
        names = "--now",
        paramLabel = "TIME",
        description = "The clock for ages (default 2026-01-01T00:00:00Z).")
    String now;

    @Option(
        names = "--snapshot",
        paramLabel = "SCENARIO",
        description =
            "Explain on the real objects of a scenario or snapshot file (caldera snapshot):"
                + " --reclaimer, --candidate and --task then name pods as NAMESPACE/NAME.")
    Path snapshot;

    @Override
    public Integer call() {
      PrintStream out = policy.parent.out();
      CompileResult r = compile(policyFiles(spec, List.of(file))).get(0);
      if (!r.ok()) {
        out.print(r.render());
        return 1;
      }
      Policy p = r.policy();
      if (snapshot != null) {
        out.println(onSnapshot(p, r.fileName()).describe());
        return 0;
      }
      try {
        JsonNode queueSpecs = queues == null ? null : PolicyCases.value(queues);
        CaseWorld world = new CaseWorld(now, queueSpecs);
        Decision d;
        if (subjects.reclaim != null) {
          if (!p.hasReclaim()) {
            throw new ParameterException(
                spec.commandLine(), r.fileName() + " has no reclaim block");
          }
          var reclaimer = world.task("reclaimer", PolicyCases.value(subjects.reclaim.reclaimer));
          var candidate = world.task("candidate", PolicyCases.value(subjects.reclaim.candidate));
          d = p.explainReclaim(world.context(), world.view(reclaimer), world.view(candidate));
        } else {
          if (!p.hasPreemptive()) {
            throw new ParameterException(
                spec.commandLine(), r.fileName() + " has no preemptive block");
          }
          world.addQueue(subjects.preemptive.queue);
          var task = world.task("task", PolicyCases.value(subjects.preemptive.task));
          d =
              p.explainPreemptive(
                  world.context(), world.queue(subjects.preemptive.queue), world.view(task));
        }
        out.println(d.describe());
        return 0;
      } catch (CaseException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage());
      }
    }

    /** The decision on the objects of a scenario file, as its first session would see them. */
    private Decision onSnapshot(Policy p, String fileName) {
      if (queues != null || now != null) {
        throw new ParameterException(
            spec.commandLine(), "--queues and --now describe made-up objects: not with --snapshot");
      }
      Scenario scenario;
      try {
        scenario = ScenarioLoader.load(snapshot);
      } catch (ScenarioException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage());
      }
      Session session =
          SessionViews.open(
              new EmbeddedCluster(
                      scenario.objects(), scenario.nodeMetrics(), Map.of(), scenario.rules())
                  .snapshot(scenario.now()));
      SessionPolicyContext context = new SessionPolicyContext(session);
      if (subjects.reclaim != null) {
        if (!p.hasReclaim()) {
          throw new ParameterException(spec.commandLine(), fileName + " has no reclaim block");
        }
        return p.explainReclaim(
            context,
            task(session, "--reclaimer", subjects.reclaim.reclaimer),
            task(session, "--candidate", subjects.reclaim.candidate));
      }
      if (!p.hasPreemptive()) {
        throw new ParameterException(spec.commandLine(), fileName + " has no preemptive block");
      }
      QueueInfo queue = session.queue(subjects.preemptive.queue);
      if (queue == null) {
        throw new ParameterException(
            spec.commandLine(),
            "--queue: no queue " + subjects.preemptive.queue + " in " + snapshot);
      }
      return p.explainPreemptive(context, queue, task(session, "--task", subjects.preemptive.task));
    }

    /** The task of the pod {@code key} (NAMESPACE/NAME) in the snapshot. */
    private TaskInfo task(Session session, String option, String key) {
      for (JobInfo job : session.jobs()) {
        for (TaskInfo t : job.tasks()) {
          if (t.key().equals(key)) {
            return t;
          }
        }
      }
      throw new ParameterException(
          spec.commandLine(),
          option
              + ": no pod "
              + key
              + " of this scheduler in "
              + snapshot
              + " (expected NAMESPACE/NAME)");
    }
  }
}
