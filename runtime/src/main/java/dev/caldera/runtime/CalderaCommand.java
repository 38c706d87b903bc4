package dev.caldera.runtime;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The {@code caldera} command line: {@code simulate} runs scenario files on the embedded cluster,
 * {@code bench} times scheduling sessions on a synthetic cluster.
 *
 * <p>Exit codes: 0 success, 1 a scenario failed or could not run, 2 a usage error (bad option,
 * missing file).
 */
@Command(
    name = "caldera",
    mixinStandardHelpOptions = true,
    versionProvider = CalderaCommand.Version.class,
    description = "A batch scheduler for Kubernetes with Volcano's scheduling semantics.")
public final class CalderaCommand implements Runnable {

  private final PrintStream out;
  private final PrintStream err;

  @Spec CommandSpec spec;

  @Option(
      names = "--stacktrace",
      scope = ScopeType.INHERIT,
      description = "Print the stack trace of an unexpected error.")
  boolean stacktrace;

  /** A command that prints to {@code out} and {@code err}. */
  public CalderaCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /** Runs the command line and exits with its code. */
  public static void main(String[] args) {
    widenCommonPool();
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(System.err, true, StandardCharsets.UTF_8);
    // caldera why, the command people run while they wait, starts without picocli (WhyQuick).
    java.util.OptionalInt quick = WhyQuick.run(args, out, err);
    System.exit(quick.isPresent() ? quick.getAsInt() : commandLine(out, err, args).execute(args));
  }

  /**
   * The subcommands in the order help lists them. picocli reads a command's annotations when it is
   * added, and reading all of them took about a third of a short command's start
   * (docs/performance.md, start-up), so {@link #commandLine(PrintStream, PrintStream, String[])}
   * adds only the one named.
   */
  private static final Map<String, Supplier<Object>> SUBCOMMANDS = subcommands();

  private static Map<String, Supplier<Object>> subcommands() {
    Map<String, Supplier<Object>> m = new LinkedHashMap<>();
    m.put("simulate", SimulateCommand::new);
    m.put("diff", DiffCommand::new);
    m.put("snapshot", SnapshotCommand::new);
    m.put("bench", BenchCommand::new);
    m.put("load", LoadCommand::new);
    m.put("run", RunCommand::new);
    m.put("policy", PolicyCommand::new);
    m.put("why", WhyCommand::new);
    m.put("queues", QueuesCommand::new);
    m.put("queue", QueueCommand::new);
    m.put("nodes", NodesCommand::new);
    m.put("help", CommandLine.HelpCommand::new);
    return Collections.unmodifiableMap(m);
  }

  private static final String COMMON_POOL_PARALLELISM =
      "java.util.concurrent.ForkJoinPool.common.parallelism";

  /**
   * On one or two CPUs (a small container) the common pool's parallelism is 1, and then every
   * asynchronous {@code CompletableFuture} step without an executor starts a thread of its own: the
   * JDK HTTP client takes one such step per request, which made 2,200 threads for 1,000 binds
   * (issue 12). Must run before anything uses the common pool; an explicit setting wins.
   */
  static void widenCommonPool() {
    if (System.getProperty(COMMON_POOL_PARALLELISM) == null
        && Runtime.getRuntime().availableProcessors() <= 2) {
      System.setProperty(COMMON_POOL_PARALLELISM, "2");
    }
  }

  /**
   * The command line, ready to {@link CommandLine#execute}: usage errors exit with 2 and unexpected
   * exceptions print one {@code error:} line (no stack trace unless {@code --stacktrace}) and exit
   * with 1.
   */
  public static CommandLine commandLine(PrintStream out, PrintStream err) {
    return commandLine(out, err, new String[0]);
  }

  /**
   * The command line for {@code args}: when the first argument names a subcommand other than {@code
   * help}, only that one is added (a faster start); otherwise every subcommand, so that usage, help
   * and errors list them all.
   */
  static CommandLine commandLine(PrintStream out, PrintStream err, String[] args) {
    CalderaCommand root = new CalderaCommand(out, err);
    CommandLine cl = new CommandLine(root);
    String first = args.length == 0 ? "" : args[0];
    if (SUBCOMMANDS.containsKey(first) && !first.equals("help")) {
      cl.addSubcommand(first, SUBCOMMANDS.get(first).get());
    } else {
      SUBCOMMANDS.forEach((name, command) -> cl.addSubcommand(name, command.get()));
    }
    CommandLine load = cl.getSubcommands().get("load");
    if (load != null) {
      // The load tool parses its own arguments: from the first one picocli does not know, all go
      // to it as they are, even one that looks like caldera's own option (--stacktrace).
      load.setStopAtUnmatched(true);
    }
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
    cl.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
    cl.setExecutionExceptionHandler(
        (ex, commandLine, parseResult) -> {
          err.println("error: " + Errors.describe(ex));
          if (root.stacktrace) {
            ex.printStackTrace(err);
          }
          return 1;
        });
    return cl;
  }

  @Override
  public void run() {
    List<String> names = new ArrayList<>();
    spec.commandLine()
        .getSubcommands()
        .forEach(
            (name, sub) -> {
              if (!name.equals("help") && !sub.getCommandSpec().usageMessage().hidden()) {
                names.add(name);
              }
            });
    throw new ParameterException(
        spec.commandLine(),
        "Missing command: one of "
            + String.join(", ", names)
            + " (caldera help COMMAND for its options)");
  }

  PrintStream out() {
    return out;
  }

  PrintStream err() {
    return err;
  }

  /** The version from the jar's manifest, when there is one. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = CalderaCommand.class.getPackage().getImplementationVersion();
      return new String[] {"caldera " + (v == null ? "(development build)" : v)};
    }
  }
}
