package dev.caldera.plugins.predicates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.PluginArguments;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PredicatesArgumentsTest {

  private static PredicatesArguments parse(Map<String, Object> values) {
    return PredicatesArguments.from(new PluginArguments("predicates", values, false));
  }

  @Test
  void defaults_followVolcano() {
    PredicatesArguments a = parse(Map.of());

    assertThat(a.nodeAffinity()).isTrue();
    assertThat(a.nodePorts()).isTrue();
    assertThat(a.taintToleration()).isTrue();
    assertThat(a.podAffinity()).isTrue();
    assertThat(a.nodeVolumeLimits()).isTrue();
    assertThat(a.volumeZone()).isTrue();
    assertThat(a.podTopologySpread()).isTrue();
    assertThat(a.volumeBinding()).isTrue();
    assertThat(a.dynamicResourceAllocation()).isFalse();
    assertThat(a.cache()).isFalse();
    assertThat(a.volumeBindingWeight()).isEqualTo(1);
    assertThat(a.volumeBindingTimeoutSeconds()).isEqualTo(600);
    assertThat(a.draFilterTimeoutSeconds()).isEqualTo(10);
    assertThat(a).isEqualTo(PredicatesArguments.DEFAULTS);
  }

  static Stream<Arguments> booleanKeys() {
    return Stream.of(
        flag(PredicatesArguments.NODE_AFFINITY, PredicatesArguments::nodeAffinity),
        flag(PredicatesArguments.NODE_PORTS, PredicatesArguments::nodePorts),
        flag(PredicatesArguments.TAINT_TOLERATION, PredicatesArguments::taintToleration),
        flag(PredicatesArguments.POD_AFFINITY, PredicatesArguments::podAffinity),
        flag(PredicatesArguments.NODE_VOLUME_LIMITS, PredicatesArguments::nodeVolumeLimits),
        flag(PredicatesArguments.VOLUME_ZONE, PredicatesArguments::volumeZone),
        flag(PredicatesArguments.POD_TOPOLOGY_SPREAD, PredicatesArguments::podTopologySpread),
        flag(PredicatesArguments.VOLUME_BINDING, PredicatesArguments::volumeBinding),
        flag(
            PredicatesArguments.DYNAMIC_RESOURCE_ALLOCATION,
            PredicatesArguments::dynamicResourceAllocation),
        flag(PredicatesArguments.CACHE, PredicatesArguments::cache));
  }

  private static Arguments flag(String key, Predicate<PredicatesArguments> read) {
    return Arguments.of(key, read);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("booleanKeys")
  void booleanKey_readsBothValuesAndTheirStrings(String key, Predicate<PredicatesArguments> read) {
    assertThat(read.test(parse(Map.of(key, true)))).isTrue();
    assertThat(read.test(parse(Map.of(key, false)))).isFalse();
    assertThat(read.test(parse(Map.of(key, "true")))).isTrue();
    assertThat(read.test(parse(Map.of(key, "false")))).isFalse();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("booleanKeys")
  void booleanKey_rejectsAWordThatIsNotABoolean(String key, Predicate<PredicatesArguments> read) {
    assertThatThrownBy(() -> parse(Map.of(key, "yes")))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining(key)
        .hasMessageContaining("\"yes\"")
        .satisfies(e -> assertThat(((PluginArgumentException) e).key()).isEqualTo(key));
    assertThatThrownBy(() -> parse(Map.of(key, 1)))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining(key);
  }

  @Test
  void volumeBindingWeight_readsAnInteger() {
    assertThat(parse(Map.of("volumebinding.weight", 5)).volumeBindingWeight()).isEqualTo(5);
    assertThat(parse(Map.of("volumebinding.weight", "3")).volumeBindingWeight()).isEqualTo(3);
  }

  @Test
  void volumeBindingWeight_rejectsANonInteger() {
    assertThatThrownBy(() -> parse(Map.of("volumebinding.weight", "heavy")))
        .isInstanceOf(PluginArgumentException.class)
        .satisfies(
            e -> assertThat(((PluginArgumentException) e).key()).isEqualTo("volumebinding.weight"));
    assertThatThrownBy(() -> parse(Map.of("volumebinding.weight", 1.5)))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("volumebinding.weight");
  }

  @Test
  void timeouts_acceptZeroAndRejectNegativeOrText() {
    assertThat(parse(Map.of("volumebinding.bindTimeoutSeconds", 0)).volumeBindingTimeoutSeconds())
        .isZero();
    assertThat(parse(Map.of("dynamicresources.filterTimeoutSeconds", 30)).draFilterTimeoutSeconds())
        .isEqualTo(30);
    assertThatThrownBy(() -> parse(Map.of("volumebinding.bindTimeoutSeconds", -1)))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("volumebinding.bindTimeoutSeconds");
    assertThatThrownBy(() -> parse(Map.of("dynamicresources.filterTimeoutSeconds", "soon")))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("dynamicresources.filterTimeoutSeconds");
  }

  @Test
  void shape_acceptsUtilizationScorePoints() {
    PredicatesArguments a =
        parse(
            Map.of(
                "volumebinding.shape",
                List.of(
                    Map.of("utilization", 0, "score", 10),
                    Map.of("utilization", 100, "score", 0))));
    assertThat(a).isEqualTo(PredicatesArguments.DEFAULTS);
  }

  @Test
  void shape_rejectsAnythingElse() {
    for (Object bad :
        List.of(
            "flat",
            List.of(Map.of("utilization", 0)),
            List.of(Map.of("utilization", 101, "score", 0)),
            List.of(Map.of("utilization", 0, "score", 11)),
            List.of("point"))) {
      assertThatThrownBy(() -> parse(Map.of("volumebinding.shape", bad)))
          .isInstanceOf(PluginArgumentException.class)
          .hasMessageContaining("volumebinding.shape");
    }
  }

  @Test
  void unknownKeys_areIgnoredAsInVolcano() {
    assertThat(parse(Map.of("predicate.GPUSharingEnable", "maybe")))
        .isEqualTo(PredicatesArguments.DEFAULTS);
  }
}
