package dev.caldera.plugins.extender;

import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;

/** Publishes the {@code extender} plugin. */
@Component(
    service = PluginFactory.class,
    configurationPolicy = ConfigurationPolicy.IGNORE,
    property = PluginFactory.NAME_PROPERTY + "=" + ExtenderPlugin.NAME)
public final class ExtenderPluginFactory implements PluginFactory {

  @Override
  public String name() {
    return ExtenderPlugin.NAME;
  }

  @Override
  public Plugin create(PluginArguments arguments) {
    ExtenderArguments args = ExtenderArguments.from(arguments);
    return new ExtenderPlugin(args, new ExtenderClient(args.urlPrefix(), args.httpTimeout()));
  }
}
