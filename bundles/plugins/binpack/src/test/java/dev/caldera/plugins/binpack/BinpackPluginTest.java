package dev.caldera.plugins.binpack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.extension.NodeOrderFn;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.RecordingExtensions;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BinpackPluginTest {

  private static final double EXACT = 1e-9;

  private final FakeSession session = new FakeSession();

  private NodeOrderFn open(Map<String, Object> arguments) {
    BinpackPlugin plugin =
        (BinpackPlugin)
            new BinpackPluginFactory().create(new PluginArguments("binpack", arguments, false));
    return RecordingExtensions.open(plugin, session).get(ExtensionPoint.NODE_ORDER);
  }

  private FakeNode gpuNode() {
    FakeNode node =
        session.addNode("n1").allocatable("cpu", "4", "memory", "8Gi", "nvidia.com/gpu", "4");
    new FakeTask("ns/running")
        .requests("cpu", "2", "memory", "2Gi", "nvidia.com/gpu", "1")
        .status(TaskStatus.RUNNING)
        .on(node);
    return node;
  }

  private static FakeTask gpuTask(String gpus) {
    return new FakeTask("ns/new").requests("cpu", "1", "memory", "2Gi", "nvidia.com/gpu", gpus);
  }

  @Test
  void score_seedScenario_prefersTheBusierNode() {
    // seeds/binpack-packs.yaml: n1 runs 3 cpu / 12Gi of 4 cpu / 16Gi; the task asks 1 cpu / 1Gi.
    FakeNode n1 = session.addNode("n1").allocatable("pods", "110", "cpu", "4", "memory", "16Gi");
    FakeNode n2 = session.addNode("n2").allocatable("pods", "110", "cpu", "4", "memory", "16Gi");
    new FakeTask("ns/busy-0")
        .requests("cpu", "3", "memory", "12Gi")
        .status(TaskStatus.RUNNING)
        .on(n1);
    FakeTask task = new FakeTask("ns/new-0").requests("cpu", "1", "memory", "1Gi");
    NodeOrderFn fn = open(Map.of("binpack.weight", 10));

    // n1: cpu (1+3)/4 = 1, memory 13/16 = 0.8125, mean 0.90625, × 100 × 10.
    assertThat(fn.score(task, n1)).isCloseTo(906.25, within(EXACT));
    // n2: cpu 1/4, memory 1/16, mean 0.15625.
    assertThat(fn.score(task, n2)).isCloseTo(156.25, within(EXACT));
  }

  @Test
  void score_extraResource_isWeighted() {
    FakeNode node = gpuNode();
    NodeOrderFn fn =
        open(Map.of("binpack.resources", "nvidia.com/gpu", "binpack.resources.nvidia.com/gpu", 2));
    // cpu 3/4·1 + memory 4/8·1 + gpu 3/4·2 = 2.75, over weights 4 = 0.6875.
    assertThat(fn.score(gpuTask("2"), node)).isCloseTo(68.75, within(EXACT));
  }

  @Test
  void score_unlistedResource_isSkipped() {
    FakeNode node = gpuNode();
    NodeOrderFn fn = open(Map.of());
    // gpu has no weight: (0.75 + 0.5) / 2.
    assertThat(fn.score(gpuTask("2"), node)).isCloseTo(62.5, within(EXACT));
  }

  @Test
  void score_overflowOfAnyWeightedResource_zeroesTheNode() {
    FakeNode node = gpuNode();
    NodeOrderFn fn = open(Map.of("binpack.resources", "nvidia.com/gpu"));
    assertThat(fn.score(gpuTask("4"), node)).isZero();
  }

  @Test
  void score_zeroResourceWeight_stillCountsInTheDivisor() {
    FakeNode node = gpuNode();
    NodeOrderFn fn = open(Map.of("binpack.memory", 0));
    // cpu 0.75·1 + memory 0, over weights 1 + 0.
    assertThat(fn.score(gpuTask("2"), node)).isCloseTo(75, within(EXACT));
  }

  @Test
  void score_resourceMissingOnNode_scoresZeroButKeepsItsWeight() {
    FakeNode node = session.addNode("n1").allocatable("cpu", "4", "memory", "8Gi");
    NodeOrderFn fn = open(Map.of("binpack.resources", "nvidia.com/gpu"));
    // cpu 1/4 + memory 2/8 + gpu 0 (no capacity), over weights 3.
    assertThat(fn.score(gpuTask("2"), node)).isCloseTo(50.0 / 3, within(EXACT));
  }

  @Test
  void score_podsOnlyWhenConfigured() {
    FakeNode node = session.addNode("n1").allocatable("cpu", "4", "memory", "8Gi", "pods", "4");
    new FakeTask("ns/running").requests("cpu", "1").status(TaskStatus.RUNNING).on(node);
    FakeTask task = new FakeTask("ns/new").requests("cpu", "1", "memory", "4Gi");
    // cpu 2/4, memory 4/8.
    assertThat(open(Map.of()).score(task, node)).isCloseTo(50, within(EXACT));
    // pods: (1 + 1)/4 joins with weight 1.
    assertThat(open(Map.of("binpack.resources", "pods")).score(task, node))
        .isCloseTo((0.5 + 0.5 + 0.5) / 3 * 100, within(EXACT));
  }

  @Test
  void score_countsReleasingButNotPipelinedTasks() {
    FakeNode node = session.addNode("n1").allocatable("cpu", "4", "memory", "8Gi");
    new FakeTask("ns/leaving")
        .requests("cpu", "2", "memory", "2Gi")
        .status(TaskStatus.RELEASING)
        .on(node);
    new FakeTask("ns/waiting")
        .requests("cpu", "1", "memory", "1Gi")
        .status(TaskStatus.PIPELINED)
        .on(node);
    FakeTask task = new FakeTask("ns/new").requests("cpu", "1", "memory", "2Gi");
    // cpu (1+2)/4, memory (2+2)/8.
    assertThat(open(Map.of()).score(task, node)).isCloseTo(62.5, within(EXACT));
  }

  @Test
  void onSessionOpen_zeroWeight_registersNothing() {
    BinpackPlugin plugin =
        new BinpackPlugin(
            BinpackArguments.from(
                new PluginArguments("binpack", Map.of("binpack.weight", 0), false)));
    assertThat(RecordingExtensions.open(plugin, session).points()).isEmpty();
  }

  @Test
  void score_negativeWeight_spreads() {
    FakeNode node = session.addNode("n1").allocatable("cpu", "4", "memory", "8Gi");
    FakeTask task = new FakeTask("ns/new").requests("cpu", "1", "memory", "2Gi");
    assertThat(open(Map.of("binpack.weight", -1)).score(task, node)).isCloseTo(-25, within(EXACT));
  }
}
