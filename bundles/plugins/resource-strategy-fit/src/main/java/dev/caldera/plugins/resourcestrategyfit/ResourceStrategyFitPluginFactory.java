package dev.caldera.plugins.resourcestrategyfit;

import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;

/** Publishes the {@code resource-strategy-fit} plugin. */
@Component(
    service = PluginFactory.class,
    configurationPolicy = ConfigurationPolicy.IGNORE,
    property = PluginFactory.NAME_PROPERTY + "=" + ResourceStrategyFitPlugin.NAME)
public final class ResourceStrategyFitPluginFactory implements PluginFactory {

  @Override
  public String name() {
    return ResourceStrategyFitPlugin.NAME;
  }

  @Override
  public Plugin create(PluginArguments arguments) {
    return new ResourceStrategyFitPlugin(ResourceStrategyFitArguments.from(arguments));
  }
}
