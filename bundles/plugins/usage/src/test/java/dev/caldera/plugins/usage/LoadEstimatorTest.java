package dev.caldera.plugins.usage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caldera.api.model.Container;
import dev.caldera.testkit.PodBuilder;
import dev.caldera.testkit.Resources;
import org.junit.jupiter.api.Test;

class LoadEstimatorTest {

  private static final double EXACT = 1e-9;

  @Test
  void compositeUtilization_addsShadowToRealLoadAndClamps() {
    assertThat(LoadEstimator.compositeUtilization(40, 1000, 4000)).isCloseTo(0.65, within(EXACT));
    assertThat(LoadEstimator.compositeUtilization(90, 1000, 4000)).isEqualTo(1);
    assertThat(LoadEstimator.compositeUtilization(-20, 0, 4000)).isZero();
    assertThat(LoadEstimator.compositeUtilization(50, 10, 0)).isZero();
  }

  @Test
  void compositeLoad_isTheWeightedMean() {
    assertThat(LoadEstimator.compositeLoad(0.2, 0.8, 3, 1)).isCloseTo(0.35, within(EXACT));
    assertThat(LoadEstimator.compositeLoad(0.2, 0.8, 0, 0)).isZero();
  }

  @Test
  void appliedRiskFactor_fromTheThresholdOn() {
    assertThat(LoadEstimator.appliedRiskFactor(0.6, 0.6, 1.2)).isEqualTo(1.2);
    assertThat(LoadEstimator.appliedRiskFactor(0.59, 0.6, 1.2)).isEqualTo(1);
    assertThat(LoadEstimator.appliedRiskFactor(0.9, 0.6, 0.8)).isEqualTo(1);
  }

  @Test
  void estimatePod_usesRequestAndBurstAndClampsToTheEffectiveLimit() {
    // 1000·0.7 + (3000 − 1000)·0.5 = 1700, × 1.2 = 2040.
    assertThat(LoadEstimator.estimatePod(1000, 3000, 0.7, 0.5, 1.2)).isCloseTo(2040, within(EXACT));
    // No limit: the request is the effective limit, so burst is 0 and 1000·1·1.2 is clamped.
    assertThat(LoadEstimator.estimatePod(1000, 0, 1, 0.5, 1.2)).isEqualTo(1000);
    // A limit below the request is ignored.
    assertThat(LoadEstimator.estimatePod(1000, 500, 0.7, 1, 1)).isCloseTo(700, within(EXACT));
    assertThat(LoadEstimator.estimatePod(-5, 0, 0.7, 0, 1)).isZero();
  }

  @Test
  void estimateBestEffort_scalesByRisk() {
    assertThat(LoadEstimator.estimateBestEffort(250, 1.2)).isCloseTo(300, within(EXACT));
    assertThat(LoadEstimator.estimateBestEffort(-1, 1.2)).isZero();
  }

  @Test
  void nodeScore_weightsFreeCapacity() {
    // ((1 − 0.4)·1 + (1 − 0.6)·1) / 2 · 100 · 5.
    assertThat(LoadEstimator.nodeScore(0.4, 0.6, 1, 1, 5)).isCloseTo(250, within(EXACT));
    // ((0.6)·3 + (0.4)·1) / 4 · 100 · 5.
    assertThat(LoadEstimator.nodeScore(0.4, 0.6, 3, 1, 5)).isCloseTo(275, within(EXACT));
    assertThat(LoadEstimator.nodeScore(0.4, 0.6, 0, 0, 5)).isZero();
  }

  @Test
  void podRequest_sumsContainersAndTakesTheLargestInitContainer() {
    double[] plain =
        LoadEstimator.podRequest(
            PodBuilder.pod("ns/p")
                .requests("cpu", "500m", "memory", "1Gi")
                .container(new Container("side", "", Resources.list("cpu", "250m"), null, null))
                .initRequests("cpu", "600m", "memory", "512Mi")
                .build());
    assertThat(plain).containsExactly(750, 1024.0 * 1024 * 1024);
    double[] bigInit =
        LoadEstimator.podRequest(
            PodBuilder.pod("ns/p").requests("cpu", "500m").initRequests("cpu", "2").build());
    assertThat(bigInit).containsExactly(2000, 0);
  }
}
