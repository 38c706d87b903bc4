package dev.caldera.kube.testplugin;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import dev.caldera.api.Session;

/**
 * The plugin a {@code PluginBundle} test ships in a jar of its own (registered only in that jar's
 * {@code META-INF/services}): {@code lastnode}, which puts tasks on the last node of the session.
 */
public final class LastNodeFirstFactory implements PluginFactory {

  public static final String NAME = "lastnode";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Plugin create(PluginArguments arguments) {
    return new Plugin() {
      @Override
      public String name() {
        return NAME;
      }

      @Override
      public void onSessionOpen(Session session, Extensions extensions) {
        extensions.add(ExtensionPoint.NODE_ORDER, (task, node) -> 1_000_000.0 * (node.index() + 1));
      }
    };
  }
}
