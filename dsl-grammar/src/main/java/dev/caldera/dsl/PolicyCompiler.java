package dev.caldera.dsl;

import dev.caldera.dsl.internal.check.Checked;
import dev.caldera.dsl.internal.check.Checker;
import dev.caldera.dsl.internal.check.Compiler;
import dev.caldera.dsl.internal.eval.CompiledPolicy;
import dev.caldera.dsl.internal.parser.Parsing;
import dev.caldera.dsl.internal.tree.Formatter;
import dev.caldera.dsl.internal.tree.PolicyFile;
import dev.caldera.dsl.internal.tree.Reporter;
import dev.caldera.dsl.internal.tree.Span;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/** Parses, checks and compiles {@code .policy} sources. Stateless and thread-safe. */
public final class PolicyCompiler {

  private PolicyCompiler() {}

  /**
   * The stack the passes over a syntax tree get: trees within the language's limits are about a
   * thousand levels deep, which must not depend on the stack of whichever thread compiles.
   */
  private static final long COMPILER_STACK_BYTES = 16L * 1024 * 1024;

  /** Compiles one file: a policy, or every error of the file. */
  public static CompileResult compile(String fileName, String source) {
    AtomicReference<CompileResult> result = new AtomicReference<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread compiler =
        new Thread(
            null,
            () -> {
              try {
                result.set(compileWithinLimits(fileName, source));
              } catch (StackOverflowError e) {
                result.set(tooDeep(fileName, source));
              } catch (Throwable e) {
                // Out of memory, or a bug: the file's error, never the caller's (a scheduler that
                // reads policies goes on; the garbage of this compilation is free again).
                failure.set(e);
              }
            },
            "caldera-policy-compiler",
            COMPILER_STACK_BYTES);
    compiler.setDaemon(true);
    compiler.start();
    boolean interrupted = false;
    while (true) {
      try {
        compiler.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    Throwable e = failure.get();
    return e != null ? failed(fileName, source, e) : result.get();
  }

  private static CompileResult failed(String fileName, String source, Throwable e) {
    Reporter reporter = new Reporter(fileName, source);
    String what = e instanceof OutOfMemoryError ? "ran out of memory" : "failed";
    reporter.report(
        DiagnosticCode.COMPILE_FAILED,
        Span.START,
        "cannot compile: the compiler "
            + what
            + " ("
            + e.getClass().getSimpleName()
            + (e.getMessage() == null ? "" : ": " + e.getMessage())
            + ")");
    return new CompileResult(fileName, source, null, null, reporter.diagnostics());
  }

  private static CompileResult tooDeep(String fileName, String source) {
    Reporter reporter = new Reporter(fileName, source);
    reporter.report(DiagnosticCode.TOO_DEEP, Span.START, "nested too deeply to compile");
    return new CompileResult(fileName, source, null, null, reporter.diagnostics());
  }

  private static CompileResult compileWithinLimits(String fileName, String source) {
    Reporter reporter = new Reporter(fileName, source);
    Parsing.Parsed parsed = Parsing.parseWithGaps(source, reporter);
    PolicyFile tree = parsed.file();
    if (reporter.has(DiagnosticCode.TOO_DEEP) || reporter.has(DiagnosticCode.TOO_LARGE)) {
      return new CompileResult(fileName, source, tree.name(), null, reporter.diagnostics());
    }
    boolean syntaxErrors = reporter.hasErrors();
    Checked checked = Checker.check(tree, reporter, syntaxErrors, parsed.brokenDeclarations());
    if (checked == null) {
      return new CompileResult(fileName, source, tree.name(), null, reporter.diagnostics());
    }
    // The explaining program is compiled here, on the caller's stack, like the deciding one: a
    // policy at the nesting limits compiles within the stack its file was checked on.
    Policy policy =
        new CompiledPolicy(
            Compiler.compile(checked, fileName), Compiler.compileForExplaining(checked, fileName));
    return new CompileResult(fileName, source, tree.name(), policy, List.of());
  }

  /**
   * Fails every file that declares a policy name an earlier file (in list order) already declared,
   * with a {@link DiagnosticCode#DUPLICATE_POLICY} error at its name; other results are returned
   * unchanged, in the same order.
   */
  public static List<CompileResult> withUniqueNames(List<CompileResult> results) {
    Map<String, CompileResult> first = new HashMap<>();
    List<CompileResult> out = new ArrayList<>();
    for (CompileResult r : results) {
      String name = r.policyName();
      CompileResult earlier = name == null ? null : first.putIfAbsent(name, r);
      if (earlier == null) {
        out.add(r);
        continue;
      }
      Diagnostic at = nameDiagnostic(r, "");
      Diagnostic there = nameDiagnostic(earlier, "");
      out.add(
          r.withError(
              new Diagnostic(
                  DiagnosticCode.DUPLICATE_POLICY,
                  r.fileName(),
                  at.line(),
                  at.column(),
                  name.length(),
                  "duplicate policy name '"
                      + name
                      + "' (also declared at "
                      + there.file()
                      + ":"
                      + there.line()
                      + ":"
                      + there.column()
                      + ")",
                  at.sourceLine())));
    }
    return out;
  }

  /** Where the result's policy name is written (found by re-reading its header). */
  private static Diagnostic nameDiagnostic(CompileResult r, String message) {
    String[] lines = r.source().split("\r?\n|\r", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      String trimmed = line.stripLeading();
      if (trimmed.startsWith("policy ") || trimmed.startsWith("policy\t")) {
        int column = line.indexOf(r.policyName(), line.indexOf("policy") + 6);
        return new Diagnostic(
            DiagnosticCode.DUPLICATE_POLICY,
            r.fileName(),
            i + 1,
            column + 1,
            r.policyName().length(),
            message,
            line);
      }
    }
    return new Diagnostic(DiagnosticCode.DUPLICATE_POLICY, r.fileName(), 1, 1, 1, message, "");
  }

  /**
   * The source in canonical layout (comments dropped), or null when it does not parse.
   *
   * @see CompileResult#render() for the errors
   */
  public static String format(String fileName, String source) {
    Reporter reporter = new Reporter(fileName, source);
    PolicyFile tree = Parsing.parse(source, reporter);
    return reporter.hasErrors() ? null : Formatter.format(tree);
  }
}
