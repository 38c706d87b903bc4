package dev.caldera.plugins.binpack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.PluginArguments;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BinpackArgumentsTest {

  private static BinpackArguments parse(Map<String, Object> values) {
    return BinpackArguments.from(new PluginArguments("binpack", values, false));
  }

  @Test
  void from_noArguments_givesVolcanoDefaults() {
    assertThat(parse(Map.of())).isEqualTo(new BinpackArguments(1, 1, 1, Map.of()));
  }

  @Test
  void from_readsEveryKey() {
    BinpackArguments args =
        parse(
            Map.of(
                "binpack.weight", 10,
                "binpack.cpu", 5,
                "binpack.memory", "2",
                "binpack.resources", " nvidia.com/gpu, example.com/foo ,,",
                "binpack.resources.nvidia.com/gpu", 3));
    assertThat(args.weight()).isEqualTo(10);
    assertThat(args.cpu()).isEqualTo(5);
    assertThat(args.memory()).isEqualTo(2);
    assertThat(args.resources())
        .containsExactly(Map.entry("nvidia.com/gpu", 3), Map.entry("example.com/foo", 1));
  }

  @Test
  void from_negativeResourceWeights_becomeOne() {
    BinpackArguments args =
        parse(
            Map.of(
                "binpack.cpu", -3,
                "binpack.memory", -1,
                "binpack.resources", "nvidia.com/gpu",
                "binpack.resources.nvidia.com/gpu", -7));
    assertThat(args.cpu()).isEqualTo(1);
    assertThat(args.memory()).isEqualTo(1);
    assertThat(args.resources()).containsExactly(Map.entry("nvidia.com/gpu", 1));
  }

  @Test
  void from_zeroWeights_areKept() {
    BinpackArguments args = parse(Map.of("binpack.weight", 0, "binpack.cpu", 0));
    assertThat(args.weight()).isZero();
    assertThat(args.cpu()).isZero();
  }

  @Test
  void from_negativePluginWeight_isKeptAsInVolcano() {
    assertThat(parse(Map.of("binpack.weight", -2)).weight()).isEqualTo(-2);
  }

  @Test
  void from_badWeight_namesTheKey() {
    assertThatThrownBy(() -> parse(Map.of("binpack.weight", "heavy")))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("binpack.weight")
        .satisfies(
            e -> assertThat(((PluginArgumentException) e).key()).isEqualTo("binpack.weight"));
  }

  @Test
  void from_fractionalCpu_namesTheKey() {
    assertThatThrownBy(() -> parse(Map.of("binpack.cpu", 1.5)))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("binpack.cpu");
  }

  @Test
  void from_badMemory_namesTheKey() {
    assertThatThrownBy(() -> parse(Map.of("binpack.memory", true)))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("binpack.memory");
  }

  @Test
  void from_resourcesNotAString_namesTheKey() {
    assertThatThrownBy(() -> parse(Map.of("binpack.resources", List.of("nvidia.com/gpu"))))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("binpack.resources");
  }

  @Test
  void from_badResourceWeight_namesTheKey() {
    assertThatThrownBy(
            () ->
                parse(
                    Map.of(
                        "binpack.resources", "nvidia.com/gpu",
                        "binpack.resources.nvidia.com/gpu", "two")))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("binpack.resources.nvidia.com/gpu");
  }

  @Test
  void from_weightOfUnlistedResource_isIgnored() {
    BinpackArguments args = parse(Map.of("binpack.resources.nvidia.com/gpu", "two"));
    assertThat(args.resources()).isEmpty();
  }
}
