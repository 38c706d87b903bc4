package dev.caldera.plugins.predicates;

import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;

/** Publishes the {@code predicates} plugin, validating its arguments. */
@Component(
    service = PluginFactory.class,
    configurationPolicy = ConfigurationPolicy.IGNORE,
    property = PluginFactory.NAME_PROPERTY + "=" + PredicatesPlugin.NAME)
public final class PredicatesPluginFactory implements PluginFactory {

  @Override
  public String name() {
    return PredicatesPlugin.NAME;
  }

  @Override
  public Plugin create(PluginArguments arguments) {
    return new PredicatesPlugin(PredicatesArguments.from(arguments));
  }
}
