package dev.caldera.plugins.tasktopology;

import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;

/** Publishes the {@code task-topology} plugin. */
@Component(
    service = PluginFactory.class,
    configurationPolicy = ConfigurationPolicy.IGNORE,
    property = PluginFactory.NAME_PROPERTY + "=" + TaskTopologyPlugin.NAME)
public final class TaskTopologyPluginFactory implements PluginFactory {

  @Override
  public String name() {
    return TaskTopologyPlugin.NAME;
  }

  @Override
  public Plugin create(PluginArguments arguments) {
    return new TaskTopologyPlugin(TaskTopologyArguments.from(arguments));
  }
}
