package dev.caldera.plugins.overcommit;

import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;

/** Publishes the {@code overcommit} plugin; it reads {@code overcommit-factor}. */
@Component(
    service = PluginFactory.class,
    configurationPolicy = ConfigurationPolicy.IGNORE,
    property = PluginFactory.NAME_PROPERTY + "=" + OvercommitPlugin.NAME)
public final class OvercommitPluginFactory implements PluginFactory {

  @Override
  public String name() {
    return OvercommitPlugin.NAME;
  }

  @Override
  public Plugin create(PluginArguments arguments) {
    return new OvercommitPlugin(OvercommitArguments.from(arguments));
  }
}
