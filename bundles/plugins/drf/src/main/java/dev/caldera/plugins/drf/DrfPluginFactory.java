package dev.caldera.plugins.drf;

import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;

/** Publishes the {@code drf} plugin; the entry's {@code enableHierarchy} flag selects HDRF. */
@Component(
    service = PluginFactory.class,
    configurationPolicy = ConfigurationPolicy.IGNORE,
    property = PluginFactory.NAME_PROPERTY + "=" + DrfPlugin.NAME)
public final class DrfPluginFactory implements PluginFactory {

  @Override
  public String name() {
    return DrfPlugin.NAME;
  }

  @Override
  public Plugin create(PluginArguments arguments) {
    return new DrfPlugin(DrfArguments.from(arguments));
  }
}
