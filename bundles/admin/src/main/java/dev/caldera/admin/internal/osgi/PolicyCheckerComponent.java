package dev.caldera.admin.internal.osgi;

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

  @Override
  public List<String> check(String fileName, String text) {
    return PolicyCompiler.compile(fileName, text).diagnostics().stream()
        .map(Diagnostic::headline)
        .toList();
  }

  @Override
  public String policyName(String fileName, String text) {
    return PolicyCompiler.compile(fileName, text).policyName();
  }
}
