package dev.caldera.plugins.usage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caldera.api.ClusterInfo;
import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.Status;
import dev.caldera.api.extension.Status.Code;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.NodeMetrics;
import dev.caldera.api.model.PodCondition;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.RecordingExtensions;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UsagePluginTest {

  private static final double EXACT = 1e-9;

  private final FakeSession session = new FakeSession();
  private final Instant now = session.now();
  private final Map<String, NodeMetrics> metrics = new LinkedHashMap<>();
  private RecordingExtensions extensions;

  private FakeNode node(String name, double cpuPercent, double memoryPercent) {
    metrics.put(name, new NodeMetrics(cpuPercent, memoryPercent, now));
    return session.addNode(name).allocatable("pods", "110", "cpu", "4", "memory", "8Gi");
  }

  private void open(Map<String, Object> arguments) {
    session.cluster(new ClusterInfo(null, null, null, null, metrics));
    UsagePlugin plugin =
        (UsagePlugin)
            new UsagePluginFactory().create(new PluginArguments("usage", arguments, false));
    extensions = RecordingExtensions.open(plugin, session);
  }

  private Status check(FakeTask task, FakeNode node) {
    return extensions.get(ExtensionPoint.PREDICATE).check(task, node);
  }

  private double score(FakeTask task, FakeNode node) {
    return extensions.get(ExtensionPoint.NODE_ORDER).score(task, node);
  }

  private EventHandler handler() {
    return extensions.get(ExtensionPoint.EVENT_HANDLER);
  }

  private static FakeTask task(String name, String cpu, String memory) {
    return new FakeTask("ns/" + name).requests("cpu", cpu, "memory", memory);
  }

  private static PodCondition scheduledAt(Instant at) {
    return new PodCondition("PodScheduled", "True", null, null, at);
  }

  // ---------------------------------------------------------------- node locality

  @Test
  void locality_oneKeyForEveryTask_andAnAllocationChangesOnlyItsNodesAnswers() {
    FakeNode n1 = node("n1", 40, 40);
    FakeNode n2 = node("n2", 40, 40);
    open(Map.of());
    FakeTask small = task("small", "1", "1Gi");
    FakeTask big = task("big", "3", "6Gi");

    for (ExtensionPoint<?> point : List.of(ExtensionPoint.PREDICATE, ExtensionPoint.NODE_ORDER)) {
      assertThat(extensions.locality(point).taskKey(small))
          .as(point.toString())
          .isNotNull()
          .isEqualTo(extensions.locality(point).taskKey(big));
    }
    double onN1 = score(small, n1);
    double onN2 = score(small, n2);
    assertThat(score(big, n1)).isEqualTo(onN1);

    FakeTask placed = task("placed", "2", "2Gi").status(TaskStatus.ALLOCATED).on(n1);
    handler().allocated(placed);

    assertThat(score(small, n2)).isEqualTo(onN2);
    assertThat(score(small, n1)).isLessThan(onN1);
  }

  // ---------------------------------------------------------------- predicate

  @Test
  void seedScenario_filtersTheBusyNodeAndScoresTheOther() {
    // seeds/usage-threshold.yaml: n1 90%/30%, n2 40%/60%, thresholds 80/80, weights 5/1/1.
    FakeNode n1 = node("n1", 90, 30);
    FakeNode n2 = node("n2", 40, 60);
    FakeTask web = task("web-0", "1", "1Gi");
    open(
        Map.of(
            "usage.weight", 5,
            "cpu.weight", 1,
            "memory.weight", 1,
            "thresholds", Map.of("cpu", 80, "mem", 80)));

    Status refused = check(web, n1);
    assertThat(refused.code()).isEqualTo(Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
    assertThat(refused.reasons()).containsExactly(UsagePlugin.CPU_OVERLOAD);
    assertThat(check(web, n2).isSuccess()).isTrue();
    // ((1 − 0.4) + (1 − 0.6)) / 2 · 100 · 5.
    assertThat(score(web, n2)).isCloseTo(250, within(EXACT));
  }

  @Test
  void predicate_memoryOverThreshold_isRefused() {
    FakeNode n = node("n1", 10, 85);
    open(Map.of());
    assertThat(check(task("t", "1", "1Gi"), n).reasons())
        .containsExactly(UsagePlugin.MEMORY_OVERLOAD);
  }

  @Test
  void predicate_bothOver_reportsCpu() {
    FakeNode n = node("n1", 95, 95);
    open(Map.of());
    assertThat(check(task("t", "1", "1Gi"), n).reasons()).containsExactly(UsagePlugin.CPU_OVERLOAD);
  }

  @Test
  void predicate_atTheThreshold_passes() {
    FakeNode n = node("n1", 80, 80);
    open(Map.of());
    assertThat(check(task("t", "1", "1Gi"), n).isSuccess()).isTrue();
  }

  @Test
  void predicate_thresholdsFromArguments() {
    FakeNode n = node("n1", 50, 10);
    open(Map.of("thresholds", Map.of("cpu", 49.5)));
    assertThat(check(task("t", "1", "1Gi"), n).reasons()).containsExactly(UsagePlugin.CPU_OVERLOAD);
  }

  @Test
  void staleMetrics_areIgnored() {
    FakeNode stale = node("stale", 99, 99);
    metrics.put("stale", new NodeMetrics(99, 99, now.minus(Duration.ofMinutes(5).plusSeconds(1))));
    FakeNode edge = node("edge", 99, 99);
    metrics.put("edge", new NodeMetrics(99, 99, now.minus(Duration.ofMinutes(5))));
    FakeTask t = task("t", "1", "1Gi");
    open(Map.of());

    assertThat(check(t, stale).isSuccess()).isTrue();
    assertThat(score(t, stale)).isZero();
    // Exactly five minutes old is still fresh.
    assertThat(check(t, edge).isSuccess()).isFalse();
  }

  @Test
  void noMetrics_passesAndScoresZero() {
    FakeNode n = session.addNode("bare").allocatable("cpu", "4", "memory", "8Gi");
    FakeTask t = task("t", "1", "1Gi");
    open(Map.of());

    assertThat(check(t, n).isSuccess()).isTrue();
    assertThat(score(t, n)).isZero();
  }

  // ---------------------------------------------------------------- score and shadow load

  @Test
  void score_weightsFromArguments() {
    FakeNode n = node("n1", 40, 60);
    open(Map.of("usage.weight", 2, "cpu.weight", 3, "memory.weight", 1));
    // (0.6·3 + 0.4·1) / 4 · 100 · 2.
    assertThat(score(task("t", "1", "1Gi"), n)).isCloseTo(110, within(EXACT));
  }

  @Test
  void allocation_addsShadowLoadAndDeallocationRemovesIt() {
    FakeNode n = node("n1", 10, 10);
    FakeTask placed = task("placed", "2", "4Gi");
    FakeTask next = task("next", "1", "1Gi");
    open(Map.of());
    assertThat(score(next, n)).isCloseTo(450, within(EXACT));

    placed.status(TaskStatus.ALLOCATED).on(n);
    assertThat(handler().allocated(placed).isSuccess()).isTrue();
    // cpu 0.1 + 2000·0.7/4000 = 0.45, memory 0.1 + 4Gi·0.7/8Gi = 0.45: 0.55 · 100 · 5.
    assertThat(score(next, n)).isCloseTo(275, within(EXACT));

    handler().deallocated(placed);
    assertThat(score(next, n)).isCloseTo(450, within(EXACT));
  }

  @Test
  void allocation_twice_replacesTheEstimate() {
    FakeNode n = node("n1", 10, 10);
    FakeTask placed = task("placed", "2", "4Gi").status(TaskStatus.ALLOCATED).on(n);
    FakeTask next = task("next", "1", "1Gi");
    open(Map.of());
    handler().allocated(placed);
    handler().allocated(placed);
    assertThat(score(next, n)).isCloseTo(275, within(EXACT));
  }

  @Test
  void deallocation_ofAnUnknownTask_changesNothing() {
    FakeNode n = node("n1", 10, 10);
    FakeTask other = task("other", "2", "4Gi").status(TaskStatus.RUNNING).on(n);
    open(Map.of());
    handler().deallocated(other);
    assertThat(score(task("t", "1", "1Gi"), n)).isCloseTo(450, within(EXACT));
  }

  @Test
  void loadedNode_appliesTheRiskFactor() {
    FakeNode n = node("n1", 70, 70);
    FakeTask placed = task("placed", "1", "1Gi").status(TaskStatus.ALLOCATED).on(n);
    open(Map.of("thresholds", Map.of("cpu", 90, "mem", 90)));
    handler().allocated(placed);
    // Composite load 0.7 ≥ 0.6: estimates × 1.2. cpu 0.7 + 840/4000 = 0.91,
    // memory 0.7 + 0.84Gi/8Gi = 0.805; ((0.09) + (0.195)) / 2 · 500.
    assertThat(score(task("t", "1", "1Gi"), n)).isCloseTo(71.25, within(1e-6));
  }

  @Test
  void estimate_isClampedToTheRequest() {
    FakeNode n = node("n1", 70, 0);
    FakeTask placed = task("placed", "1", "0").status(TaskStatus.ALLOCATED).on(n);
    open(Map.of("memory.weight", 0, "estimator", Map.of("request_ratio", 1, "risk_factor", 2)));
    handler().allocated(placed);
    // 1000·1·2 clamped to 1000: cpu 0.7 + 0.25 = 0.95; memory weight 0.
    assertThat(score(task("t", "1", "1Gi"), n)).isCloseTo(25, within(1e-6));
  }

  @Test
  void bestEffortTask_usesTheConfiguredEstimate() {
    FakeNode n = node("n1", 0, 0);
    FakeTask placed = new FakeTask("ns/be").status(TaskStatus.ALLOCATED).on(n);
    open(Map.of("estimator", Map.of("be_cpu", "1", "be_mem", "2Gi")));
    handler().allocated(placed);
    // cpu 1000/4000 = 0.25, memory 2Gi/8Gi = 0.25: 0.75 · 500.
    assertThat(score(task("t", "1", "1Gi"), n)).isCloseTo(375, within(EXACT));
  }

  @Test
  void warmUp_countsRecentlyPlacedTasksOnly() {
    FakeNode n = node("n1", 0, 0);
    task("bound", "1", "0").status(TaskStatus.BOUND).on(n);
    task("binding", "1", "0").status(TaskStatus.BINDING).on(n);
    task("fresh", "1", "0")
        .status(TaskStatus.RUNNING)
        .condition(scheduledAt(now.minusSeconds(29)))
        .on(n);
    task("unknownStart", "1", "0").status(TaskStatus.RUNNING).on(n);
    task("old", "4", "0")
        .status(TaskStatus.RUNNING)
        .condition(scheduledAt(now.minusSeconds(30)))
        .on(n);
    task("pipelined", "4", "0").status(TaskStatus.PIPELINED).on(n);
    task("releasing", "4", "0").status(TaskStatus.RELEASING).on(n);
    open(Map.of("memory.weight", 0));
    // Four tasks of 1 cpu at 0.7 each: 2800/4000 = 0.7 → 0.3 · 500.
    assertThat(score(task("t", "1", "1Gi"), n)).isCloseTo(150, within(1e-6));
  }

  @Test
  void warmUp_raisesTheRiskForLaterTasksOnTheSameNode() {
    FakeNode n = node("n1", 50, 50);
    task("a", "2", "4Gi").status(TaskStatus.BOUND).on(n);
    task("b", "2", "4Gi").status(TaskStatus.BOUND).on(n);
    open(Map.of("thresholds", Map.of("cpu", 100, "mem", 100)));
    // a: load 0.5 < 0.6, estimate 1400 → 0.85; b: load 0.85 ≥ 0.6, 1680 → 1.27 → clamped 1.
    assertThat(score(task("t", "1", "1Gi"), n)).isZero();
  }

  @Test
  void open_registersPredicateNodeOrderAndEventHandler() {
    open(Map.of());
    assertThat(extensions.points())
        .containsExactlyInAnyOrder(
            ExtensionPoint.PREDICATE, ExtensionPoint.NODE_ORDER, ExtensionPoint.EVENT_HANDLER);
  }
}
