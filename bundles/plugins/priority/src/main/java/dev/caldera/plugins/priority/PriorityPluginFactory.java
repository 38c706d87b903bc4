package dev.caldera.plugins.priority;

import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;

/**
 * Publishes the {@code priority} plugin; it takes no arguments and ignores unknown keys, as Volcano
 * does.
 */
@Component(
    service = PluginFactory.class,
    configurationPolicy = ConfigurationPolicy.IGNORE,
    property = PluginFactory.NAME_PROPERTY + "=" + PriorityPlugin.NAME)
public final class PriorityPluginFactory implements PluginFactory {

  @Override
  public String name() {
    return PriorityPlugin.NAME;
  }

  @Override
  public Plugin create(PluginArguments arguments) {
    return new PriorityPlugin();
  }
}
