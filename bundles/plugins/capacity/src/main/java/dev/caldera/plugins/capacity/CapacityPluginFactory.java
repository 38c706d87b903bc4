package dev.caldera.plugins.capacity;

import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;

/**
 * Publishes the {@code capacity} plugin. The factory outlives sessions, so it owns the memory of
 * the queue-tree warnings already reported ({@link QueueReports}); every plugin it creates shares
 * it, which is how a warning is reported once per change rather than once per session.
 */
@Component(
    service = PluginFactory.class,
    configurationPolicy = ConfigurationPolicy.IGNORE,
    property = PluginFactory.NAME_PROPERTY + "=" + CapacityPlugin.NAME)
public final class CapacityPluginFactory implements PluginFactory {

  private final QueueReports reports = new QueueReports();

  @Override
  public String name() {
    return CapacityPlugin.NAME;
  }

  @Override
  public Plugin create(PluginArguments arguments) {
    return new CapacityPlugin(CapacityArguments.parse(arguments), reports);
  }
}
