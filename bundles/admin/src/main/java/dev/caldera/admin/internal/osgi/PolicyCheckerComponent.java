package dev.caldera.admin.internal.osgi;

import dev.caldera.dsl.CompileResult;
import dev.caldera.dsl.Diagnostic;
import dev.caldera.dsl.PolicyCompiler;
import dev.caldera.framework.loop.PolicyChecker;
import java.util.List;
import org.osgi.service.component.annotations.Component;

/**
 * Lets the scheduling loop check a policy file with the policy compiler before it replaces the
 * version in force, so a file with errors is reported ({@code file:line:column: message}) and the
 * last good version keeps running.
 */
@Component(service = PolicyChecker.class)
public final class PolicyCheckerComponent implements PolicyChecker {

  /** The loop asks {@link #check} and then {@link #policyName} of the same text: compile once. */
  private record Compiled(String fileName, String text, CompileResult result) {}

  private volatile Compiled last;

  @Override
  public List<String> check(String fileName, String text) {
    return compile(fileName, text).diagnostics().stream().map(Diagnostic::headline).toList();
  }

  @Override
  public String policyName(String fileName, String text) {
    return compile(fileName, text).policyName();
  }

  private CompileResult compile(String fileName, String text) {
    Compiled c = last;
    if (c == null || !c.fileName().equals(fileName) || !c.text().equals(text)) {
      c = new Compiled(fileName, text, PolicyCompiler.compile(fileName, text));
      last = c;
    }
    return c.result();
  }
}
