package dev.caldera.dsl;

import java.util.ArrayList;
import java.util.List;

/**
 * The outcome of compiling one file: a policy, or the diagnostics (all of them, sorted by
 * position). A result with diagnostics has no policy.
 *
 * @param policyName the declared name, when the header parsed (also when the rest has errors)
 * @param policy null when there are diagnostics
 */
public record CompileResult(
    String fileName,
    String source,
    String policyName,
    Policy policy,
    List<Diagnostic> diagnostics) {

  public CompileResult {
    diagnostics = List.copyOf(diagnostics);
  }

  /** Whether the file compiled without errors. */
  public boolean ok() {
    return diagnostics.isEmpty();
  }

  /** Every diagnostic rendered with its source line and caret, one after another. */
  public String render() {
    StringBuilder out = new StringBuilder();
    for (Diagnostic d : diagnostics) {
      out.append(d.render()).append('\n');
    }
    return out.toString();
  }

  /** This result failed with one more diagnostic (kept sorted). */
  public CompileResult withError(Diagnostic d) {
    List<Diagnostic> all = new ArrayList<>(diagnostics);
    all.add(d);
    all.sort(null);
    return new CompileResult(fileName, source, policyName, null, all);
  }
}
