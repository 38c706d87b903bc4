package dev.caldera.plugins.cdp;

import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;

/**
 * Publishes the {@code cdp} plugin; it takes no arguments and ignores unknown keys, as Volcano
 * does.
 */
@Component(
    service = PluginFactory.class,
    configurationPolicy = ConfigurationPolicy.IGNORE,
    property = PluginFactory.NAME_PROPERTY + "=" + CdpPlugin.NAME)
public final class CdpPluginFactory implements PluginFactory {

  @Override
  public String name() {
    return CdpPlugin.NAME;
  }

  @Override
  public Plugin create(PluginArguments arguments) {
    return new CdpPlugin();
  }
}
