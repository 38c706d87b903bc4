package dev.caldera.plugins.nodeorder;

import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;

/** Publishes the {@code nodeorder} plugin. */
@Component(
    service = PluginFactory.class,
    configurationPolicy = ConfigurationPolicy.IGNORE,
    property = PluginFactory.NAME_PROPERTY + "=" + NodeOrderPlugin.NAME)
public final class NodeOrderPluginFactory implements PluginFactory {

  /** Shared by the sessions this factory's plugins open, one after another. */
  private final PodRequests podRequests = new PodRequests();

  private final CountedNodes countedNodes = new CountedNodes();

  @Override
  public String name() {
    return NodeOrderPlugin.NAME;
  }

  @Override
  public Plugin create(PluginArguments arguments) {
    return new NodeOrderPlugin(NodeOrderArguments.from(arguments), podRequests, countedNodes);
  }
}
