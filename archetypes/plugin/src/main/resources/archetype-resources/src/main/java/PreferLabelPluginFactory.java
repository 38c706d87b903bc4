package ${package};

import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;

/** Publishes the {@value PreferLabelPlugin#NAME} plugin to Caldera (Declarative Services). */
@Component(
    service = PluginFactory.class,
    configurationPolicy = ConfigurationPolicy.IGNORE,
    property = PluginFactory.NAME_PROPERTY + "=" + PreferLabelPlugin.NAME)
public final class PreferLabelPluginFactory implements PluginFactory {

  @Override
  public String name() {
    return PreferLabelPlugin.NAME;
  }

  @Override
  public Plugin create(PluginArguments arguments) {
    return new PreferLabelPlugin(PreferLabelArguments.from(arguments));
  }
}
