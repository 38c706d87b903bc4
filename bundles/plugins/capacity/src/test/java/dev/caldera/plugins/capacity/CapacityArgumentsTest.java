package dev.caldera.plugins.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class CapacityArgumentsTest {

  private static CapacityArguments parse(Map<String, Object> values, boolean hierarchy) {
    return CapacityArguments.parse(new PluginArguments("capacity", values, hierarchy));
  }

  @Test
  void defaults_areVolcanos() {
    CapacityArguments args = parse(Map.of(), false);

    assertThat(args.ancestorReclaimLevel()).isZero();
    assertThat(args.dynamicResourceAllocation()).isTrue();
    assertThat(args.draConsumableCapacity()).isFalse();
    assertThat(args.hierarchy()).isFalse();
  }

  @Test
  void ancestorReclaimLevel_readsIntegersAndIntegerStrings() {
    assertThat(parse(Map.of("ancestorReclaimLevel", 2), false).ancestorReclaimLevel()).isEqualTo(2);
    assertThat(parse(Map.of("ancestorReclaimLevel", "3"), false).ancestorReclaimLevel())
        .isEqualTo(3);
  }

  @Test
  void ancestorReclaimLevel_negativeFallsBackToZero() {
    assertThat(parse(Map.of("ancestorReclaimLevel", -2), false).ancestorReclaimLevel()).isZero();
  }

  @Test
  void ancestorReclaimLevel_nonIntegerIsAnArgumentError() {
    for (Object bad : new Object[] {"one", 1.5, true}) {
      assertThatThrownBy(() -> parse(Map.of("ancestorReclaimLevel", bad), false))
          .isInstanceOf(PluginArgumentException.class)
          .hasMessageContaining("ancestorReclaimLevel")
          .hasMessageContaining("integer");
    }
  }

  @Test
  void draFlags_areBooleans() {
    CapacityArguments args =
        parse(
            Map.of(
                "capacity.DynamicResourceAllocationEnable",
                false,
                "capacity.DRAConsumableCapacityEnable",
                "true"),
            false);

    assertThat(args.dynamicResourceAllocation()).isFalse();
    assertThat(args.draConsumableCapacity()).isTrue();
  }

  @Test
  void draFlags_nonBooleanIsAnArgumentError() {
    assertThatThrownBy(() -> parse(Map.of("capacity.DynamicResourceAllocationEnable", 1), false))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("capacity.DynamicResourceAllocationEnable");
    assertThatThrownBy(() -> parse(Map.of("capacity.DRAConsumableCapacityEnable", "yes"), false))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("capacity.DRAConsumableCapacityEnable");
  }

  @Test
  void hierarchy_comesFromTheEntryFlag() {
    assertThat(parse(Map.of(), true).hierarchy()).isTrue();
  }

  @Test
  void factory_makesACapacityPluginFromItsArguments() {
    CapacityPluginFactory factory = new CapacityPluginFactory();

    var plugin =
        factory.create(new PluginArguments("capacity", Map.of("ancestorReclaimLevel", 1), true));

    assertThat(factory.name()).isEqualTo("capacity");
    assertThat(plugin).isInstanceOf(CapacityPlugin.class);
    assertThat(plugin.name()).isEqualTo("capacity");
    assertThat(((CapacityPlugin) plugin).arguments())
        .isEqualTo(new CapacityArguments(1, true, false, true));
  }

  @Test
  void factory_rejectsBadArgumentsAtCreation() {
    assertThatThrownBy(
            () ->
                new CapacityPluginFactory()
                    .create(
                        new PluginArguments(
                            "capacity", Map.of("ancestorReclaimLevel", "deep"), false)))
        .isInstanceOf(PluginArgumentException.class);
  }

  @Test
  void factory_isListedForServiceLoader() {
    assertThat(ServiceLoader.load(PluginFactory.class).stream().map(ServiceLoader.Provider::type))
        .contains(CapacityPluginFactory.class);
  }
}
