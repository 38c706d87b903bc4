package dev.caldera.framework.internal.osgi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import dev.caldera.framework.PluginRegistry;
import dev.caldera.framework.internal.osgi.Providers.Provider;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Version;

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
    registry.addPlugin(gang, Map.of());
    PluginRegistry.Use session = registry.inUse();

    CompletableFuture<Void> removal =
        CompletableFuture.runAsync(() -> registry.removePlugin(gang, Map.of()));

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
    registry.addPlugin(old, Map.of("service.id", 1L));
    registry.addPlugin(replacement, Map.of("service.id", 2L));

    registry.removePlugin(old, Map.of());

    assertThat(registry.plugin("gang")).containsSame(replacement);
    registry.inUse().close();
    assertThat(registry.pluginNames()).containsExactly("gang");
  }

  @Test
  void removingTheProviderInForce_fallsBackToTheOneStillThere() {
    OsgiPluginRegistry registry = new OsgiPluginRegistry();
    PluginFactory original = factory("binpack");
    PluginFactory variant = factory("binpack");
    registry.addPlugin(original, Map.of("service.id", 10L));
    registry.addPlugin(variant, Map.of("service.id", 11L, "service.ranking", 5));
    assertThat(registry.plugin("binpack")).containsSame(variant);

    registry.removePlugin(variant, Map.of("service.id", 11L, "service.ranking", 5));

    assertThat(registry.plugin("binpack")).containsSame(original);
    registry.removePlugin(original, Map.of("service.id", 10L));
    assertThat(registry.plugin("binpack")).isEmpty();
  }

  @Test
  void aSecondFactoryOfANameInForce_isRefusedAndReported_untilItTakesOver() {
    OsgiPluginRegistry registry = new OsgiPluginRegistry();
    PluginFactory first = factory("gang");
    PluginFactory second = factory("gang");
    registry.addPlugin(first, Map.of("service.id", 1L));
    assertThat(registry.refusals()).isEmpty();

    registry.addPlugin(second, Map.of("service.id", 2L));

    assertThat(registry.plugin("gang")).containsSame(first);
    assertThat(registry.refusals())
        .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .startsWith("plugin gang: ")
        .contains(" refused, ")
        .contains("highest bundle version, then service.ranking, then first registered");
    registry.removePlugin(first, Map.of("service.id", 1L));
    assertThat(registry.plugin("gang")).containsSame(second);
    assertThat(registry.refusals()).isEmpty();
  }

  @Test
  void removingAProviderNotInForce_keepsTheOneInForce() {
    OsgiPluginRegistry registry = new OsgiPluginRegistry();
    PluginFactory first = factory("capacity-card");
    PluginFactory second = factory("capacity-card");
    registry.addPlugin(first, Map.of("service.id", 1L));
    registry.addPlugin(second, Map.of("service.id", 2L));

    registry.removePlugin(second, Map.of("service.id", 2L));

    assertThat(registry.plugin("capacity-card")).containsSame(first);
  }

  @Test
  void providers_rankByBundleVersionThenServiceRankingThenRegistrationOrder() {
    Providers<String> providers = new Providers<>();
    providers.add("binpack", new Provider<>("v9", Version.parseVersion("9.0.0.variant"), 0, 7));
    providers.add("binpack", new Provider<>("v0.1-ranked", Version.parseVersion("0.1.0"), 100, 1));
    providers.add("binpack", new Provider<>("v0.1-late", Version.parseVersion("0.1.0"), 0, 9));
    providers.add("binpack", new Provider<>("v0.1-early", Version.parseVersion("0.1.0"), 0, 3));

    assertThat(providers.of("binpack"))
        .extracting(Provider::service)
        .containsExactly("v9", "v0.1-ranked", "v0.1-early", "v0.1-late");
    assertThat(providers.remove("binpack", "v9")).contains("v0.1-ranked");
  }
}
