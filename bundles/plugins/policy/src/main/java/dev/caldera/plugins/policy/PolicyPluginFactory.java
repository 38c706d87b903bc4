package dev.caldera.plugins.policy;

import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import dev.caldera.dsl.Diagnostic;
import dev.caldera.framework.loop.MetricsSource;
import dev.caldera.framework.loop.PolicyChecker;
import java.util.List;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;

/**
 * Publishes the {@code policy} plugin, the {@link PolicyChecker} the scheduling loop checks a
 * changed policy file with, and the audit-mode disagreement counts for {@code /metrics}. Both use
 * one {@link PolicyLibrary}: a text the loop checked is not compiled again when sessions run it,
 * and sessions compile only the texts that changed.
 */
@Component(
    service = {PluginFactory.class, PolicyChecker.class, MetricsSource.class},
    configurationPolicy = ConfigurationPolicy.IGNORE,
    property = PluginFactory.NAME_PROPERTY + "=" + PolicyPlugin.NAME)
public final class PolicyPluginFactory implements PluginFactory, PolicyChecker, MetricsSource {

  private final PolicyLibrary library = new PolicyLibrary();
  private final AuditCounts auditCounts = new AuditCounts();

  @Override
  public String name() {
    return PolicyPlugin.NAME;
  }

  @Override
  public Plugin create(PluginArguments arguments) {
    return new PolicyPlugin(PolicyArguments.parse(arguments), library, auditCounts);
  }

  /** The audit-mode disagreements, for {@code /metrics}. */
  @Override
  public List<Family> metrics() {
    return auditCounts.metrics();
  }

  @Override
  public List<String> check(String fileName, String text) {
    return library.check(fileName, text).diagnostics().stream().map(Diagnostic::headline).toList();
  }

  @Override
  public String policyName(String fileName, String text) {
    return library.check(fileName, text).policyName();
  }

  /** The shared library, for tests. */
  PolicyLibrary library() {
    return library;
  }
}
