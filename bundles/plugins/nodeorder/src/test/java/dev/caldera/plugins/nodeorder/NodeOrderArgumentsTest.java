package dev.caldera.plugins.nodeorder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.PluginArguments;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NodeOrderArgumentsTest {

  private static NodeOrderArguments parse(Map<String, Object> values) {
    return NodeOrderArguments.from(new PluginArguments("nodeorder", values, false));
  }

  @Test
  void from_noArguments_givesVolcanoDefaults() {
    assertThat(parse(Map.of())).isEqualTo(new NodeOrderArguments(1, 0, 1, 2, 2, 3, 1, 2));
  }

  @Test
  void from_readsEveryKey() {
    Map<String, Object> values = new HashMap<>();
    values.put("leastrequested.weight", 11);
    values.put("mostrequested.weight", 12);
    values.put("balancedresource.weight", 13);
    values.put("nodeaffinity.weight", 14);
    values.put("podaffinity.weight", 15);
    values.put("tainttoleration.weight", 16);
    values.put("imagelocality.weight", 17);
    values.put("podtopologyspread.weight", "18");
    assertThat(parse(values)).isEqualTo(new NodeOrderArguments(11, 12, 13, 14, 15, 16, 17, 18));
  }

  @Test
  void from_zeroWeight_disablesOnlyThatScorer() {
    NodeOrderArguments args = parse(Map.of("tainttoleration.weight", 0));
    assertThat(args.taintToleration()).isZero();
    assertThat(args.leastRequested()).isEqualTo(1);
    assertThat(args.anyBatchScorer()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "leastrequested.weight",
        "mostrequested.weight",
        "balancedresource.weight",
        "nodeaffinity.weight",
        "podaffinity.weight",
        "tainttoleration.weight",
        "imagelocality.weight",
        "podtopologyspread.weight"
      })
  void from_notAnInteger_namesTheKey(String key) {
    assertThatThrownBy(() -> parse(Map.of(key, "heavy")))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining(key)
        .satisfies(e -> assertThat(((PluginArgumentException) e).key()).isEqualTo(key));
    assertThatThrownBy(() -> parse(Map.of(key, 1.5)))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining(key);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "leastrequested.weight",
        "mostrequested.weight",
        "balancedresource.weight",
        "nodeaffinity.weight",
        "podaffinity.weight",
        "tainttoleration.weight",
        "imagelocality.weight",
        "podtopologyspread.weight"
      })
  void from_negative_isRefusedNamingTheKey(String key) {
    assertThatThrownBy(() -> parse(Map.of(key, -1)))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining(key)
        .hasMessageContaining("0 or more")
        .satisfies(e -> assertThat(((PluginArgumentException) e).key()).isEqualTo(key));
  }

  @Test
  void anyBatchScorer_falseWhenOnlyImageLocalityIsOn() {
    Map<String, Object> values = new HashMap<>();
    for (String key :
        new String[] {
          "leastrequested.weight",
          "balancedresource.weight",
          "nodeaffinity.weight",
          "podaffinity.weight",
          "tainttoleration.weight",
          "podtopologyspread.weight"
        }) {
      values.put(key, 0);
    }
    NodeOrderArguments args = parse(values);
    assertThat(args.anyBatchScorer()).isFalse();
    assertThat(args.imageLocality()).isEqualTo(1);
  }
}
