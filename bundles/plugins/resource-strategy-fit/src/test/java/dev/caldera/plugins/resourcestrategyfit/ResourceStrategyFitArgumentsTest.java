package dev.caldera.plugins.resourcestrategyfit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.PluginArguments;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResourceStrategyFitArgumentsTest {

  private static ResourceStrategyFitArguments parse(Map<String, Object> values) {
    return ResourceStrategyFitArguments.from(
        new PluginArguments(ResourceStrategyFitPlugin.NAME, values, false));
  }

  private static Map<String, Object> map(Object... keyValues) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      m.put((String) keyValues[i], keyValues[i + 1]);
    }
    return m;
  }

  private static void assertRefused(Map<String, Object> values, String key, String... texts) {
    assertThatThrownBy(() -> parse(values))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining(ResourceStrategyFitPlugin.NAME)
        .hasMessageContaining(key)
        .satisfies(e -> assertThat(((PluginArgumentException) e).key()).isEqualTo(key))
        .satisfies(
            e -> {
              for (String t : texts) {
                assertThat(e.getMessage()).contains(t);
              }
            });
  }

  @Test
  void from_noArguments_givesVolcanoDefaults() {
    ResourceStrategyFitArguments args = parse(Map.of());
    assertThat(args.fitWeight()).isEqualTo(10);
    assertThat(args.resources().byPattern())
        .containsExactly(
            Map.entry("cpu", new ResourceStrategy(ScoringType.LEAST_ALLOCATED, 1)),
            Map.entry("memory", new ResourceStrategy(ScoringType.LEAST_ALLOCATED, 1)));
    assertThat(args.sra()).isEqualTo(SraPolicy.DISABLED);
    assertThat(args.proportional()).isNull();
  }

  @Test
  void from_readsEveryKey() {
    ResourceStrategyFitArguments args =
        parse(
            map(
                "resourceStrategyFitWeight", 7,
                "resources",
                    map(
                        "nvidia.com/gpu", map("type", "MostAllocated", "weight", 2),
                        "cpu", map("type", "LeastAllocated", "weight", 3),
                        "example.com/*", map("type", "MostAllocated", "weight", 4)),
                "sra",
                    map(
                        "enable",
                        true,
                        "resources",
                        "nvidia.com/gpu, example.com/foo",
                        "weight",
                        10,
                        "resourceWeight",
                        map("nvidia.com/gpu", 5)),
                "proportional",
                    map(
                        "enable",
                        true,
                        "resources",
                        "nvidia.com/gpu",
                        "resourceProportion",
                        map("nvidia.com/gpu.cpu", 4, "nvidia.com/gpu.memory", 8.5))));
    assertThat(args.fitWeight()).isEqualTo(7);
    assertThat(args.resources().byPattern())
        .containsExactly(
            Map.entry("nvidia.com/gpu", new ResourceStrategy(ScoringType.MOST_ALLOCATED, 2)),
            Map.entry("cpu", new ResourceStrategy(ScoringType.LEAST_ALLOCATED, 3)),
            Map.entry("example.com/*", new ResourceStrategy(ScoringType.MOST_ALLOCATED, 4)));
    assertThat(args.sra().weight()).isEqualTo(10);
    assertThat(args.sra().resources())
        .containsExactly(Map.entry("nvidia.com/gpu", 5), Map.entry("example.com/foo", 1));
    assertThat(args.proportional().resources())
        .containsExactly(new ProportionalPolicy.Rate("nvidia.com/gpu", 4.0, 8.5));
  }

  @Test
  void fitWeight_negativeBecomesDefault_zeroIsKept() {
    assertThat(parse(map("resourceStrategyFitWeight", -3)).fitWeight()).isEqualTo(10);
    assertThat(parse(map("resourceStrategyFitWeight", 0)).fitWeight()).isZero();
    assertThat(parse(map("resourceStrategyFitWeight", "25")).fitWeight()).isEqualTo(25);
  }

  @Test
  void fitWeight_wrongType_isRefused() {
    assertRefused(map("resourceStrategyFitWeight", "heavy"), "resourceStrategyFitWeight");
    assertRefused(map("resourceStrategyFitWeight", 1.5), "resourceStrategyFitWeight");
  }

  @Test
  void resources_emptyMap_givesDefault() {
    assertThat(parse(map("resources", Map.of())).resources()).isEqualTo(ResourceStrategies.DEFAULT);
  }

  @Test
  void resources_weightAtMostZeroBecomesOne_missingTypeIsLeastAllocated() {
    Map<String, Object> entries = new LinkedHashMap<>();
    entries.put("cpu", map("type", "MostAllocated", "weight", 0));
    entries.put("memory", map("weight", -4));
    entries.put("nvidia.com/gpu", null);
    ResourceStrategies r = parse(map("resources", entries)).resources();
    assertThat(r.byPattern())
        .containsExactly(
            Map.entry("cpu", new ResourceStrategy(ScoringType.MOST_ALLOCATED, 1)),
            Map.entry("memory", new ResourceStrategy(ScoringType.LEAST_ALLOCATED, 1)),
            Map.entry("nvidia.com/gpu", new ResourceStrategy(ScoringType.LEAST_ALLOCATED, 1)));
  }

  @Test
  void resources_notAMapping_isRefused() {
    assertRefused(map("resources", "cpu,memory"), "resources", "a mapping");
    assertRefused(map("resources", map("cpu", List.of(1))), "resources[cpu]", "a mapping");
  }

  @Test
  void resources_unknownType_isRefusedNamingThePath() {
    assertRefused(
        map("resources", map("cpu", map("type", "Mostallocated"))),
        "resources[cpu].type",
        "LeastAllocated or MostAllocated");
  }

  @Test
  void resources_badWeight_isRefused() {
    assertRefused(
        map("resources", map("cpu", map("weight", "two"))), "resources[cpu].weight", "integer");
    assertRefused(
        map("resources", map("cpu", map("weight", 1.5))), "resources[cpu].weight", "integer");
  }

  @Test
  void resources_unknownEntryKey_isRefused() {
    assertRefused(
        map("resources", map("cpu", map("typ", "MostAllocated"))), "resources[cpu].typ", "type");
  }

  @Test
  void resources_loneStar_isRefusedWithAClearError() {
    assertRefused(
        map("resources", map("*", map("type", "MostAllocated"))),
        "resources[*]",
        "lone \"*\"",
        "nvidia.com/*");
  }

  @Test
  void resources_starNotTrailingOrRepeated_isRefused() {
    assertRefused(map("resources", map("*.com/gpu", map())), "resources[*.com/gpu]", "trailing");
    assertRefused(map("resources", map("nvidia.*/gpu", map())), "resources[nvidia.*/gpu]");
    assertRefused(map("resources", map("nvidia.com/**", map())), "resources[nvidia.com/**]");
  }

  @Test
  void resources_trailingWildcard_isAccepted() {
    assertThat(parse(map("resources", map("nvidia.com/*", map()))).resources().byPattern())
        .containsOnlyKeys("nvidia.com/*");
  }

  @Test
  void resources_nonStringKey_isRefused() {
    Map<Object, Object> entries = new HashMap<>();
    entries.put(5, map());
    assertRefused(map("resources", entries), "resources", "string keys");
  }

  @Test
  void sra_enabledWithoutWeight_hasWeightZeroAsInVolcano() {
    SraPolicy sra = parse(map("sra", map("enable", true, "resources", "nvidia.com/gpu"))).sra();
    assertThat(sra.weight()).isZero();
    assertThat(sra.active()).isFalse();
    assertThat(sra.resources()).containsExactly(Map.entry("nvidia.com/gpu", 1));
  }

  @Test
  void sra_notEnabled_isDisabledEvenWithSettings() {
    assertThat(parse(map("sra", map("resources", "nvidia.com/gpu", "weight", 5))).sra())
        .isEqualTo(SraPolicy.DISABLED);
    assertThat(parse(map("sra", map("enable", "false", "weight", 5))).sra())
        .isEqualTo(SraPolicy.DISABLED);
  }

  @Test
  void sra_negativeResourceWeightBecomesOne_zeroIsKept_emptyNamesSkipped() {
    SraPolicy sra =
        parse(
                map(
                    "sra",
                    map(
                        "enable",
                        true,
                        "weight",
                        2,
                        "resources",
                        " a.com/x ,, b.com/y ,c.com/z",
                        "resourceWeight",
                        map("a.com/x", -2, "b.com/y", 0, "c.com/z", 3))))
            .sra();
    assertThat(sra.resources())
        .containsExactly(Map.entry("a.com/x", 1), Map.entry("b.com/y", 0), Map.entry("c.com/z", 3));
    assertThat(sra.weightSum()).isEqualTo(4);
  }

  @Test
  void sra_negativeWeight_isInactive() {
    assertThat(parse(map("sra", map("enable", true, "weight", -1))).sra().active()).isFalse();
  }

  @Test
  void sra_badValues_areRefused() {
    assertRefused(map("sra", "on"), "sra", "a mapping");
    assertRefused(map("sra", map("enable", "yes")), "sra.enable", "true or false");
    assertRefused(map("sra", map("enable", true, "weight", "x")), "sra.weight", "integer");
    assertRefused(map("sra", map("enable", true, "resources", 5)), "sra.resources", "string");
    assertRefused(map("sra", map("resourceWeight", "a:1")), "sra.resourceWeight", "a mapping");
    assertRefused(
        map("sra", map("resources", "a.com/x", "resourceWeight", map("a.com/x", "one"))),
        "sra.resourceWeight.a.com/x",
        "integer");
    assertRefused(
        map("sra", map("resourceWeight", map("unlisted.com/x", 2.5))),
        "sra.resourceWeight.unlisted.com/x");
    assertRefused(map("sra", map("enabled", true)), "sra.enabled", "enable");
  }

  @Test
  void proportional_absentOrNotEnabled_isNull() {
    assertThat(parse(Map.of()).proportional()).isNull();
    assertThat(parse(map("proportional", map("resources", "nvidia.com/gpu"))).proportional())
        .isNull();
  }

  @Test
  void proportional_ratesDefaultToOne_negativeBecomesOne() {
    ProportionalPolicy p =
        parse(
                map(
                    "proportional",
                    map(
                        "enable",
                        true,
                        "resources",
                        "a.com/x,b.com/y",
                        "resourceProportion",
                        map("a.com/x.cpu", -2, "b.com/y.memory", "16"))))
            .proportional();
    assertThat(p.resources())
        .containsExactly(
            new ProportionalPolicy.Rate("a.com/x", 1.0, 1.0),
            new ProportionalPolicy.Rate("b.com/y", 1.0, 16.0));
  }

  @Test
  void proportional_enabledWithoutResources_isAnEmptyPolicy() {
    assertThat(parse(map("proportional", map("enable", true))).proportional().resources())
        .isEmpty();
  }

  @Test
  void proportional_badValues_areRefused() {
    assertRefused(map("proportional", List.of()), "proportional", "a mapping");
    assertRefused(map("proportional", map("enable", 1)), "proportional.enable", "true or false");
    assertRefused(
        map("proportional", map("resourceProportion", map("a.com/x.cpu", "four"))),
        "proportional.resourceProportion.a.com/x.cpu",
        "a number");
    assertRefused(
        map("proportional", map("resourceProportion", map("a.com/x.cpu", Double.NaN))),
        "proportional.resourceProportion.a.com/x.cpu");
    assertRefused(map("proportional", map("ratio", 1)), "proportional.ratio");
  }
}
