package dev.caldera.plugins.nodegroup;

import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;

/** Publishes the {@code nodegroup} plugin. */
@Component(
    service = PluginFactory.class,
    configurationPolicy = ConfigurationPolicy.IGNORE,
    property = PluginFactory.NAME_PROPERTY + "=" + NodeGroupPlugin.NAME)
public final class NodeGroupPluginFactory implements PluginFactory {

  @Override
  public String name() {
    return NodeGroupPlugin.NAME;
  }

  @Override
  public Plugin create(PluginArguments arguments) {
    return new NodeGroupPlugin(NodeGroupArguments.from(arguments));
  }
}
