package dev.caldera.plugins.resourcequota;

import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;

/**
 * Publishes the {@code resourcequota} plugin; it takes no arguments and ignores unknown keys, as
 * Volcano does.
 */
@Component(
    service = PluginFactory.class,
    configurationPolicy = ConfigurationPolicy.IGNORE,
    property = PluginFactory.NAME_PROPERTY + "=" + ResourceQuotaPlugin.NAME)
public final class ResourceQuotaPluginFactory implements PluginFactory {

  @Override
  public String name() {
    return ResourceQuotaPlugin.NAME;
  }

  @Override
  public Plugin create(PluginArguments arguments) {
    return new ResourceQuotaPlugin();
  }
}
