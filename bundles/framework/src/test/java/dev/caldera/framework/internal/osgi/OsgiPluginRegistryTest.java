package dev.caldera.framework.internal.osgi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import dev.caldera.framework.PluginRegistry;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class OsgiPluginRegistryTest {

  private static PluginFactory factory(String name) {
    return new PluginFactory() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Plugin create(PluginArguments arguments) {
        throw new UnsupportedOperationException();
      }
    };
  }

  @Test
  void removePlugin_waitsForTheSessionInFlight() throws Exception {
    OsgiPluginRegistry registry = new OsgiPluginRegistry();
    PluginFactory gang = factory("gang");
    registry.addPlugin(gang);
    PluginRegistry.Use session = registry.inUse();

    CompletableFuture<Void> removal = CompletableFuture.runAsync(() -> registry.removePlugin(gang));

    assertThat(removal).isNotDone();
    assertThat(registry.plugin("gang")).containsSame(gang);
    session.close();
    removal.get(30, TimeUnit.SECONDS);
    assertThat(registry.plugin("gang")).isEmpty();
  }

  @Test
  void removePlugin_withoutSessionsIsImmediate_andKeepsAnotherProvidersFactory() {
    OsgiPluginRegistry registry = new OsgiPluginRegistry();
    PluginFactory old = factory("gang");
    PluginFactory replacement = factory("gang");
    registry.addPlugin(old);
    registry.addPlugin(replacement);

    registry.removePlugin(old);

    assertThat(registry.plugin("gang")).containsSame(replacement);
    registry.inUse().close();
    assertThat(registry.pluginNames()).containsExactly("gang");
  }
}
