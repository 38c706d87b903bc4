package dev.caldera.dsl.internal.tree;

import dev.caldera.dsl.Diagnostic;
import dev.caldera.dsl.DiagnosticCode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Collects the diagnostics of one file; {@link #diagnostics()} sorts them by position. */
public final class Reporter {

  private final String file;
  private final String[] lines;
  private final List<Diagnostic> diagnostics = new ArrayList<>();

  public Reporter(String file, String source) {
    this.file = file;
    this.lines = source.split("\r?\n|\r", -1);
  }

  /** The file name the diagnostics carry. */
  public String file() {
    return file;
  }

  /** The text of a 1-based line, or "" past the end. */
  public String line(int line) {
    return line >= 1 && line <= lines.length ? lines[line - 1] : "";
  }

  /** Records an error at {@code span}. */
  public void report(DiagnosticCode code, Span span, String message) {
    diagnostics.add(
        new Diagnostic(
            code, file, span.line(), span.column(), span.length(), message, line(span.line())));
  }

  /** Whether anything was reported with {@code code}. */
  public boolean has(DiagnosticCode code) {
    return diagnostics.stream().anyMatch(d -> d.code() == code);
  }

  /** Whether anything was reported. */
  public boolean hasErrors() {
    return !diagnostics.isEmpty();
  }

  /**
   * Everything reported, sorted by line and column (reports at one position keep their order). A
   * line with a syntax error reports only its first one: what follows on that line is the parser
   * recovering, and would only echo it.
   */
  public List<Diagnostic> diagnostics() {
    List<Diagnostic> sorted = new ArrayList<>(diagnostics);
    sorted.sort(null);
    Map<Integer, Diagnostic> firstSyntaxError = new HashMap<>();
    for (Diagnostic d : sorted) {
      if (d.code() == DiagnosticCode.SYNTAX) {
        firstSyntaxError.putIfAbsent(d.line(), d);
      }
    }
    List<Diagnostic> kept = new ArrayList<>();
    for (Diagnostic d : sorted) {
      Diagnostic first = firstSyntaxError.get(d.line());
      if (first == null || first == d) {
        kept.add(d);
      }
    }
    return List.copyOf(kept);
  }
}
