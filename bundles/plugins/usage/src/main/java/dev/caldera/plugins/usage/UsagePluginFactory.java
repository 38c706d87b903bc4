package dev.caldera.plugins.usage;

import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;

/** Publishes the {@code usage} plugin. */
@Component(
    service = PluginFactory.class,
    configurationPolicy = ConfigurationPolicy.IGNORE,
    property = PluginFactory.NAME_PROPERTY + "=" + UsagePlugin.NAME)
public final class UsagePluginFactory implements PluginFactory {

  private final MetricsProblems problems = new MetricsProblems();

  @Override
  public String name() {
    return UsagePlugin.NAME;
  }

  @Override
  public Plugin create(PluginArguments arguments) {
    return new UsagePlugin(
        UsageArguments.from(arguments), UsageMetricsArguments.from(arguments), problems);
  }
}
