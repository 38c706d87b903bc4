package dev.caldera.plugins.policy;

import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import dev.caldera.api.host.MetricsSource;
import dev.caldera.api.host.PolicyChecker;
import dev.caldera.dsl.CompileResult;
import dev.caldera.dsl.Diagnostic;
import dev.caldera.dsl.PolicyLibrary;
import dev.caldera.dsl.ReportedErrors;
import java.util.List;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Reference;

/**
 * Publishes the {@code policy} plugin, the {@link PolicyChecker} the scheduling loop checks a
 * changed policy file with, and the audit-mode disagreement counts for {@code /metrics}. Both use
 * the framework's one {@link PolicyLibrary}: a text the loop checked is not compiled again when
 * sessions run it, and sessions compile only the texts that changed. An error the loop reported
 * ({@code PolicyRejected}) is not reported again by a session; else the session that meets it
 * reports it ({@code PolicyError}), once per text.
 */
@Component(
    service = {PluginFactory.class, PolicyChecker.class, MetricsSource.class},
    configurationPolicy = ConfigurationPolicy.IGNORE,
    property = PluginFactory.NAME_PROPERTY + "=" + PolicyPlugin.NAME)
public final class PolicyPluginFactory implements PluginFactory, PolicyChecker, MetricsSource {

  private final PolicyLibrary library;
  private final ReportedErrors reported = new ReportedErrors();
  private final AuditCounts auditCounts = new AuditCounts();

  /** Without OSGi ({@code ServiceLoader}, tests): with a library of its own. */
  public PolicyPluginFactory() {
    this(PolicyLibrary.create());
  }

  /** In OSGi: with the language bundle's library, the one the framework's plugins share. */
  @Activate
  public PolicyPluginFactory(@Reference(name = "library") PolicyLibrary library) {
    this.library = library;
  }

  @Override
  public String name() {
    return PolicyPlugin.NAME;
  }

  @Override
  public Plugin create(PluginArguments arguments) {
    return new PolicyPlugin(PolicyArguments.parse(arguments), library, reported, auditCounts);
  }

  /** The audit-mode disagreements, for {@code /metrics}. */
  @Override
  public List<Family> metrics() {
    return auditCounts.metrics();
  }

  @Override
  public List<String> check(String fileName, String text) {
    return checked(fileName, text).diagnostics().stream().map(Diagnostic::headline).toList();
  }

  @Override
  public String policyName(String fileName, String text) {
    return checked(fileName, text).policyName();
  }

  /** The loop's check: its errors count as reported (the loop reports them). */
  private CompileResult checked(String fileName, String text) {
    CompileResult r = library.check(fileName, text);
    reported.checked(r);
    return r;
  }

  /** The library, for tests. */
  PolicyLibrary library() {
    return library;
  }
}
