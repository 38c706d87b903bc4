package dev.caldera.plugins.resourcestrategyfit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodOverridesTest {

  private static final ResourceStrategies GLOBAL = global();

  private static ResourceStrategies global() {
    Map<String, ResourceStrategy> m = new LinkedHashMap<>();
    m.put("cpu", new ResourceStrategy(ScoringType.LEAST_ALLOCATED, 1));
    m.put("nvidia.com/*", new ResourceStrategy(ScoringType.MOST_ALLOCATED, 2));
    return new ResourceStrategies(m);
  }

  private static ResourceStrategies apply(String type, String weights) {
    Map<String, String> annotations = new LinkedHashMap<>();
    if (type != null) {
      annotations.put(PodOverrides.SCORING_TYPE, type);
    }
    if (weights != null) {
      annotations.put(PodOverrides.WEIGHTS, weights);
    }
    return PodOverrides.apply(GLOBAL, annotations);
  }

  @Test
  void noAnnotations_keepTheConfiguration() {
    assertThat(apply(null, null)).isSameAs(GLOBAL);
  }

  @Test
  void scoringType_appliesToEveryConfiguredResource_keepingWeights() {
    assertThat(apply("MostAllocated", null).byPattern())
        .containsExactly(
            Map.entry("cpu", new ResourceStrategy(ScoringType.MOST_ALLOCATED, 1)),
            Map.entry("nvidia.com/*", new ResourceStrategy(ScoringType.MOST_ALLOCATED, 2)));
  }

  @Test
  void weights_replaceTheScoredSet_keepingConfiguredTypes() {
    ResourceStrategies r = apply(null, "{\"nvidia.com/gpu\": 5, \"memory\": 3, \"cpu\": 0}");
    assertThat(r.byPattern())
        .containsExactly(
            Map.entry("nvidia.com/gpu", new ResourceStrategy(ScoringType.MOST_ALLOCATED, 5)),
            Map.entry("memory", new ResourceStrategy(ScoringType.LEAST_ALLOCATED, 3)),
            Map.entry("cpu", new ResourceStrategy(ScoringType.LEAST_ALLOCATED, 1)));
  }

  @Test
  void typeAndWeights_together() {
    assertThat(apply("LeastAllocated", "{\"nvidia.com/gpu\": 4}").byPattern())
        .containsExactly(
            Map.entry("nvidia.com/gpu", new ResourceStrategy(ScoringType.LEAST_ALLOCATED, 4)));
  }

  @Test
  void unreadableAnnotations_areIgnored() {
    assertThat(apply("Packed", null)).isSameAs(GLOBAL);
    assertThat(apply(null, "{\"cpu\": 2.5}")).isSameAs(GLOBAL);
    assertThat(apply(null, "{\"cpu\": \"2\"}")).isSameAs(GLOBAL);
    assertThat(apply(null, "cpu=2")).isSameAs(GLOBAL);
    assertThat(apply(null, "{\"cpu\": 2} x")).isSameAs(GLOBAL);
    assertThat(apply(null, "{\"*\": 2}")).isSameAs(GLOBAL);
    assertThat(apply(null, "{}")).isSameAs(GLOBAL);
  }

  @Test
  void badWeights_withAGoodType_applyOnlyTheType() {
    assertThat(apply("MostAllocated", "not json").lookup("cpu"))
        .isEqualTo(new ResourceStrategy(ScoringType.MOST_ALLOCATED, 1));
  }

  @Test
  void parseWeights_readsEscapesWhitespaceAndNegatives() {
    assertThat(PodOverrides.parseWeights(" {\n\"a\\u002eb/c\" : -2 ,\"d\\/e\":7}\t"))
        .containsExactly(Map.entry("a.b/c", -2), Map.entry("d/e", 7));
  }
}
