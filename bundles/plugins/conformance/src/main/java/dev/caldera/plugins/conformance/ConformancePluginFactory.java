package dev.caldera.plugins.conformance;

import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;

/**
 * Publishes the {@code conformance} plugin; it takes no arguments and ignores unknown keys, as
 * Volcano does.
 */
@Component(
    service = PluginFactory.class,
    configurationPolicy = ConfigurationPolicy.IGNORE,
    property = PluginFactory.NAME_PROPERTY + "=" + ConformancePlugin.NAME)
public final class ConformancePluginFactory implements PluginFactory {

  @Override
  public String name() {
    return ConformancePlugin.NAME;
  }

  @Override
  public Plugin create(PluginArguments arguments) {
    return new ConformancePlugin();
  }
}
