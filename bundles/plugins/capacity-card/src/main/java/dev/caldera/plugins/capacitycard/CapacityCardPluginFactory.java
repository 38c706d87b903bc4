package dev.caldera.plugins.capacitycard;

import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import dev.caldera.dsl.PolicyLibrary;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Reference;

/**
 * Publishes the {@code capacity-card} plugin. The factory outlives sessions, so it keeps the memory
 * of the queue annotation problems already reported: each is reported once per change, not once per
 * session. Its reclaim policies are compiled by the framework's {@link PolicyLibrary}.
 */
@Component(
    service = PluginFactory.class,
    configurationPolicy = ConfigurationPolicy.IGNORE,
    property = PluginFactory.NAME_PROPERTY + "=" + CapacityCardPlugin.NAME)
public final class CapacityCardPluginFactory implements PluginFactory {

  private final QueueReports reports = new QueueReports();
  private final ReclaimPolicies policies;

  /** Without OSGi ({@code ServiceLoader}, tests): with a library of its own. */
  public CapacityCardPluginFactory() {
    this(PolicyLibrary.create());
  }

  /** In OSGi: with the language bundle's library, the one the framework's plugins share. */
  @Activate
  public CapacityCardPluginFactory(@Reference(name = "library") PolicyLibrary library) {
    this.policies = new ReclaimPolicies(library);
  }

  @Override
  public String name() {
    return CapacityCardPlugin.NAME;
  }

  @Override
  public Plugin create(PluginArguments arguments) {
    return new CapacityCardPlugin(CardArguments.parse(arguments), reports, policies);
  }
}
