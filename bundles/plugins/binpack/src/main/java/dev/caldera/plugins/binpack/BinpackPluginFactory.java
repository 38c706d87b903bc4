package dev.caldera.plugins.binpack;

import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;

/** Publishes the {@code binpack} plugin. */
@Component(
    service = PluginFactory.class,
    configurationPolicy = ConfigurationPolicy.IGNORE,
    property = PluginFactory.NAME_PROPERTY + "=" + BinpackPlugin.NAME)
public final class BinpackPluginFactory implements PluginFactory {

  @Override
  public String name() {
    return BinpackPlugin.NAME;
  }

  @Override
  public Plugin create(PluginArguments arguments) {
    return new BinpackPlugin(BinpackArguments.from(arguments));
  }
}
