package dev.caldera.itests.variant;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import dev.caldera.api.Session;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;

/**
 * A test variant of the {@code binpack} plugin: it scores nodes by their position in the session's
 * node list, so the last node wins, where the real binpack leaves equal empty nodes tied (and the
 * first one wins).
 */
@Component(
    service = PluginFactory.class,
    configurationPolicy = ConfigurationPolicy.IGNORE,
    property = PluginFactory.NAME_PROPERTY + "=binpack")
public final class LastNodeFirstPluginFactory implements PluginFactory {

  @Override
  public String name() {
    return "binpack";
  }

  @Override
  public Plugin create(PluginArguments arguments) {
    return new Plugin() {
      @Override
      public String name() {
        return "binpack";
      }

      @Override
      public void onSessionOpen(Session session, Extensions extensions) {
        extensions.add(ExtensionPoint.NODE_ORDER, (task, node) -> 1000.0 * (node.index() + 1));
      }
    };
  }
}
