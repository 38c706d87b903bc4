package dev.caldera.runtime;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
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
    description = "A batch scheduler for Kubernetes with Volcano's scheduling semantics.",
    subcommands = {
      SimulateCommand.class,
      DiffCommand.class,
      SnapshotCommand.class,
      BenchCommand.class,
      RunCommand.class,
      PolicyCommand.class,
      WhyCommand.class,
      QueuesCommand.class,
      CommandLine.HelpCommand.class
    })
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
    System.exit(commandLine(out, err).execute(args));
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
    CalderaCommand root = new CalderaCommand(out, err);
    CommandLine cl = new CommandLine(root);
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
    throw new ParameterException(spec.commandLine(), "Missing command: simulate or bench");
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
