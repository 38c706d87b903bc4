package dev.caldera.plugins.capacitycard;

import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;

/**
 * Publishes the {@code capacity-card} plugin. The factory outlives sessions, so it keeps the memory
 * of the queue annotation problems already reported: each is reported once per change, not once per
 * session.
 */
@Component(
    service = PluginFactory.class,
    configurationPolicy = ConfigurationPolicy.IGNORE,
    property = PluginFactory.NAME_PROPERTY + "=" + CapacityCardPlugin.NAME)
public final class CapacityCardPluginFactory implements PluginFactory {

  private final QueueReports reports = new QueueReports();
  private final ReclaimPolicies policies = new ReclaimPolicies();

  @Override
  public String name() {
    return CapacityCardPlugin.NAME;
  }

  @Override
  public Plugin create(PluginArguments arguments) {
    return new CapacityCardPlugin(CardArguments.parse(arguments), reports, policies);
  }
}
