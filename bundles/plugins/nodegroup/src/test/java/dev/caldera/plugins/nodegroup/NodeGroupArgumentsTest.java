package dev.caldera.plugins.nodegroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.PluginArguments;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeGroupArgumentsTest {

  private static NodeGroupArguments parse(Map<String, Object> values, boolean hierarchy) {
    return NodeGroupArguments.from(new PluginArguments("nodegroup", values, hierarchy));
  }

  @Test
  void from_noArguments_givesVolcanoDefaults() {
    assertThat(parse(Map.of(), false)).isEqualTo(new NodeGroupArguments(true, false, false));
  }

  @Test
  void from_readsEveryKeyAndTheHierarchyFlag() {
    assertThat(parse(Map.of("strict", false, "enablePreferredOrder", "true"), true))
        .isEqualTo(new NodeGroupArguments(false, true, true));
  }

  @Test
  void from_badStrict_namesTheKey() {
    assertThatThrownBy(() -> parse(Map.of("strict", "maybe"), false))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("strict")
        .satisfies(e -> assertThat(((PluginArgumentException) e).key()).isEqualTo("strict"));
  }

  @Test
  void from_badEnablePreferredOrder_namesTheKey() {
    assertThatThrownBy(() -> parse(Map.of("enablePreferredOrder", 1), false))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("enablePreferredOrder");
  }

  @Test
  void factory_badArgument_failsAtCreate() {
    assertThatThrownBy(
            () ->
                new NodeGroupPluginFactory()
                    .create(new PluginArguments("nodegroup", Map.of("strict", 3), false)))
        .isInstanceOf(PluginArgumentException.class);
  }

  @Test
  void factory_name_isVolcanos() {
    assertThat(new NodeGroupPluginFactory().name()).isEqualTo("nodegroup");
  }
}
