package dev.caldera.plugins.resourcestrategyfit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResourceStrategiesTest {

  private static final ResourceStrategy EXACT = new ResourceStrategy(ScoringType.MOST_ALLOCATED, 5);
  private static final ResourceStrategy SHORT =
      new ResourceStrategy(ScoringType.LEAST_ALLOCATED, 1);
  private static final ResourceStrategy LONG = new ResourceStrategy(ScoringType.MOST_ALLOCATED, 3);

  private static ResourceStrategies strategies() {
    Map<String, ResourceStrategy> m = new LinkedHashMap<>();
    m.put("nvidia.*", SHORT);
    m.put("nvidia.com/gpu", EXACT);
    m.put("nvidia.com/*", LONG);
    return new ResourceStrategies(m);
  }

  @Test
  void lookup_exactNameWinsOverPatterns() {
    assertThat(strategies().lookup("nvidia.com/gpu")).isEqualTo(EXACT);
  }

  @Test
  void lookup_longestMatchingPrefixWins_whateverTheConfOrder() {
    assertThat(strategies().lookup("nvidia.com/gpumem")).isEqualTo(LONG);
    Map<String, ResourceStrategy> reversed = new LinkedHashMap<>();
    reversed.put("nvidia.com/*", LONG);
    reversed.put("nvidia.*", SHORT);
    assertThat(new ResourceStrategies(reversed).lookup("nvidia.com/gpumem")).isEqualTo(LONG);
  }

  @Test
  void lookup_shorterPatternMatchesWhatTheLongerDoesNot() {
    assertThat(strategies().lookup("nvidia.io/vgpu")).isEqualTo(SHORT);
  }

  @Test
  void lookup_noMatch_isNull() {
    assertThat(strategies().lookup("cpu")).isNull();
    assertThat(strategies().lookup("nvidia")).isNull();
  }
}
