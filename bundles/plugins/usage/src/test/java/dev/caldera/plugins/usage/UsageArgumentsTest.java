package dev.caldera.plugins.usage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.PluginArguments;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UsageArgumentsTest {

  private static final double MI = 1024 * 1024;

  private static UsageArguments parse(Map<String, Object> values) {
    return UsageArguments.from(new PluginArguments("usage", values, false));
  }

  private static void assertRefused(Map<String, Object> values, String key) {
    assertThatThrownBy(() -> parse(values))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining(key)
        .satisfies(e -> assertThat(((PluginArgumentException) e).key()).isEqualTo(key));
  }

  @Test
  void from_noArguments_givesVolcanoDefaults() {
    assertThat(parse(Map.of()))
        .isEqualTo(new UsageArguments(5, 1, 1, 80, 80, 0.7, 0, 0.6, 1.2, 250, 200 * MI));
  }

  @Test
  void from_seedScenarioArguments() {
    UsageArguments args =
        parse(
            Map.of(
                "usage.weight", 5,
                "cpu.weight", 1,
                "memory.weight", 1,
                "thresholds", Map.of("cpu", 80, "mem", 80)));
    assertThat(args).isEqualTo(UsageArguments.DEFAULTS);
  }

  @Test
  void from_readsEveryKey() {
    UsageArguments args =
        parse(
            Map.of(
                "usage.weight",
                7,
                "cpu.weight",
                3,
                "memory.weight",
                "2",
                "thresholds",
                Map.of("cpu", 65, "mem", 72.5),
                "estimator",
                Map.of(
                    "request_ratio", 0.8,
                    "burst_ratio", 0.3,
                    "risk_threshold", 0.75,
                    "risk_factor", 1.5,
                    "be_cpu", "500m",
                    "be_mem", "300mi")));
    assertThat(args)
        .isEqualTo(new UsageArguments(7, 3, 2, 65, 72.5, 0.8, 0.3, 0.75, 1.5, 500, 300 * MI));
  }

  @Test
  void from_negativeResourceWeights_becomeOne() {
    UsageArguments args = parse(Map.of("cpu.weight", -2, "memory.weight", -5));
    assertThat(args.cpuWeight()).isEqualTo(1);
    assertThat(args.memoryWeight()).isEqualTo(1);
  }

  @Test
  void from_zeroAndNegativeUsageWeight_areKept() {
    assertThat(parse(Map.of("usage.weight", 0, "cpu.weight", 0)).cpuWeight()).isZero();
    assertThat(parse(Map.of("usage.weight", -1)).usageWeight()).isEqualTo(-1);
  }

  @Test
  void from_unknownKeys_areIgnored() {
    assertThat(parse(Map.of("thresholds", Map.of("disk", 3), "thresholds.cpu", "x")))
        .isEqualTo(UsageArguments.DEFAULTS);
  }

  @Test
  void from_badWeights_nameTheKey() {
    assertRefused(Map.of("usage.weight", "heavy"), "usage.weight");
    assertRefused(Map.of("cpu.weight", 1.5), "cpu.weight");
    assertRefused(Map.of("memory.weight", true), "memory.weight");
  }

  @Test
  void from_thresholdsNotAMapping_isRefused() {
    assertRefused(Map.of("thresholds", 80), "thresholds");
    assertRefused(Map.of("thresholds", List.of(80)), "thresholds");
    assertRefused(Map.of("estimator", "fast"), "estimator");
  }

  @Test
  void from_thresholdOutOfRangeOrNotANumber_isRefused() {
    assertRefused(Map.of("thresholds", Map.of("cpu", 120)), "thresholds.cpu");
    assertRefused(Map.of("thresholds", Map.of("cpu", -1)), "thresholds.cpu");
    assertRefused(Map.of("thresholds", Map.of("mem", "high")), "thresholds.mem");
    assertRefused(Map.of("thresholds", Map.of("mem", 100.5)), "thresholds.mem");
  }

  @Test
  void from_thresholdBounds_areAccepted() {
    UsageArguments args = parse(Map.of("thresholds", Map.of("cpu", 0, "mem", 100)));
    assertThat(args.cpuThreshold()).isZero();
    assertThat(args.memoryThreshold()).isEqualTo(100);
  }

  @Test
  void from_estimatorRatiosOutOfRange_areRefused() {
    assertRefused(Map.of("estimator", Map.of("request_ratio", 1.5)), "estimator.request_ratio");
    assertRefused(Map.of("estimator", Map.of("burst_ratio", -0.1)), "estimator.burst_ratio");
    assertRefused(Map.of("estimator", Map.of("risk_threshold", 2)), "estimator.risk_threshold");
    assertRefused(Map.of("estimator", Map.of("risk_factor", 0.9)), "estimator.risk_factor");
    assertRefused(Map.of("estimator", Map.of("risk_factor", "big")), "estimator.risk_factor");
  }

  @Test
  void from_bestEffortQuantities_followGetQuantity() {
    // A bare integer counts whole units: 1 core, 1024 bytes; a float is read in thousandths.
    UsageArguments ints = parse(Map.of("estimator", Map.of("be_cpu", 1, "be_mem", 1024)));
    assertThat(ints.bestEffortMilliCpu()).isEqualTo(1000);
    assertThat(ints.bestEffortMemory()).isEqualTo(1024);
    UsageArguments floats = parse(Map.of("estimator", Map.of("be_cpu", 0.5)));
    assertThat(floats.bestEffortMilliCpu()).isEqualTo(500);
    UsageArguments strings = parse(Map.of("estimator", Map.of("be_cpu", " 2 ", "be_mem", "1Gi")));
    assertThat(strings.bestEffortMilliCpu()).isEqualTo(2000);
    assertThat(strings.bestEffortMemory()).isEqualTo(1024 * MI);
  }

  @Test
  void from_badBestEffortQuantities_areRefused() {
    assertRefused(Map.of("estimator", Map.of("be_cpu", "lots")), "estimator.be_cpu");
    assertRefused(Map.of("estimator", Map.of("be_cpu", true)), "estimator.be_cpu");
    assertRefused(Map.of("estimator", Map.of("be_mem", "-1Mi")), "estimator.be_mem");
    assertRefused(Map.of("estimator", Map.of("be_mem", -5)), "estimator.be_mem");
  }

  @Test
  void factory_badArgument_failsAtCreate() {
    assertThatThrownBy(
            () ->
                new UsagePluginFactory()
                    .create(
                        new PluginArguments(
                            "usage", Map.of("thresholds", Map.of("cpu", 101)), false)))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessageContaining("plugin usage");
  }
}
