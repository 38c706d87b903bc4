package dev.caldera.plugins.sla;

import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;

/** Publishes the {@code sla} plugin; it reads {@code sla-waiting-time}. */
@Component(
    service = PluginFactory.class,
    configurationPolicy = ConfigurationPolicy.IGNORE,
    property = PluginFactory.NAME_PROPERTY + "=" + SlaPlugin.NAME)
public final class SlaPluginFactory implements PluginFactory {

  @Override
  public String name() {
    return SlaPlugin.NAME;
  }

  @Override
  public Plugin create(PluginArguments arguments) {
    return new SlaPlugin(SlaArguments.from(arguments));
  }
}
