package dev.caldera.plugins.resourcestrategyfit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.extension.NodeOrderFn;
import dev.caldera.api.extension.PredicateFn;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.RecordingExtensions;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResourceStrategyFitPluginTest {

  private final FakeSession session = new FakeSession();
  private final FakeJob job = session.addJob("c1/pg1");
  private int taskCount;

  private static Map<String, Object> map(Object... keyValues) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      m.put((String) keyValues[i], keyValues[i + 1]);
    }
    return m;
  }

  private static Map<String, Object> strategy(String type, int weight) {
    return map("type", type, "weight", weight);
  }

  private static ResourceStrategyFitPlugin plugin(Map<String, Object> args) {
    return new ResourceStrategyFitPlugin(
        ResourceStrategyFitArguments.from(
            new PluginArguments(ResourceStrategyFitPlugin.NAME, args, false)));
  }

  private RecordingExtensions open(Map<String, Object> args) {
    return RecordingExtensions.open(plugin(args), session);
  }

  private NodeOrderFn nodeOrder(Map<String, Object> args) {
    return open(args).get(ExtensionPoint.NODE_ORDER);
  }

  private FakeTask pending(String... requests) {
    return job.task("t" + taskCount++).requests(requests);
  }

  /** A node with {@code used} already taken by a running task. */
  private FakeNode node(String name, String[] allocatable, String... used) {
    FakeNode node = session.addNode(name).allocatable(allocatable);
    if (used.length > 0) {
      job.task(name + "-running").requests(used).status(TaskStatus.RUNNING).on(node);
    }
    return node;
  }

  private static String[] alloc(String... pairs) {
    return pairs;
  }

  // ------------------------------------------------------------ Volcano's TestScore cases

  private double volcanoCase(
      String cpuType, int cpuWeight, String memType, int memWeight, String cpuAllocatable) {
    FakeNode node =
        cpuAllocatable == null
            ? node("n", alloc("memory", "400", "pods", "10"), "cpu", "200m", "memory", "200")
            : node(
                "n",
                alloc(
                    "cpu", cpuAllocatable, "memory", cpuAllocatable.replace("m", ""), "pods", "10"),
                "cpu",
                "200m",
                "memory",
                "200");
    Map<String, Object> resources = new LinkedHashMap<>();
    if (cpuType != null) {
      resources.put("cpu", strategy(cpuType, cpuWeight));
    }
    resources.put("memory", strategy(memType, memWeight));
    return nodeOrder(map("resourceStrategyFitWeight", 10, "resources", resources))
        .score(pending("cpu", "100m", "memory", "100"), node);
  }

  @Test
  void score_leastAllocatedBoth() {
    assertThat(volcanoCase("LeastAllocated", 1, "LeastAllocated", 1, "500m"))
        .isCloseTo(400, within(1e-8));
  }

  @Test
  void score_leastAllocatedBoth_smallerNode() {
    assertThat(volcanoCase("LeastAllocated", 1, "LeastAllocated", 1, "400m"))
        .isCloseTo(250, within(1e-8));
  }

  @Test
  void score_mostAllocatedBoth() {
    assertThat(volcanoCase("MostAllocated", 1, "MostAllocated", 1, "500m"))
        .isCloseTo(600, within(1e-8));
  }

  @Test
  void score_mixedWeights() {
    assertThat(volcanoCase("LeastAllocated", 2, "MostAllocated", 1, "500m"))
        .isCloseTo(466.66666667, within(1e-6));
  }

  @Test
  void score_mixedWeights_memoryHeavier() {
    assertThat(volcanoCase("LeastAllocated", 1, "MostAllocated", 2, "500m"))
        .isCloseTo(533.33333333, within(1e-6));
  }

  @Test
  void score_zeroCapacity_scoresZeroButItsWeightStillCounts() {
    assertThat(volcanoCase("LeastAllocated", 1, "MostAllocated", 2, null))
        .isCloseTo(500, within(1e-8));
  }

  @Test
  void score_unconfiguredResource_isSkipped() {
    assertThat(volcanoCase(null, 0, "MostAllocated", 2, "500m")).isCloseTo(600, within(1e-8));
  }

  @Test
  void score_resourceNotRequested_isSkipped() {
    FakeNode node =
        node("n", alloc("cpu", "500m", "memory", "500"), "cpu", "200m", "memory", "200");
    NodeOrderFn fn =
        nodeOrder(
            map(
                "resources",
                map("cpu", strategy("LeastAllocated", 1), "memory", strategy("MostAllocated", 2))));
    assertThat(fn.score(pending("memory", "100"), node)).isCloseTo(600, within(1e-8));
  }

  @Test
  void score_overflowOfAnyScoredResource_zeroesTheNode() {
    FakeNode node =
        node("n", alloc("cpu", "500m", "memory", "500"), "cpu", "200m", "memory", "200");
    NodeOrderFn fn = nodeOrder(map("resources", map("cpu", strategy("MostAllocated", 1))));
    assertThat(fn.score(pending("cpu", "301m", "memory", "1"), node)).isZero();
    assertThat(fn.score(pending("cpu", "300m", "memory", "1"), node)).isCloseTo(1000, within(1e-8));
  }

  @Test
  void score_pipelinedTasksDoNotCountAsUsed_releasingDo() {
    FakeNode node = session.addNode("n").allocatable("cpu", "1000m", "memory", "1000");
    job.task("p").requests("cpu", "500m").status(TaskStatus.PIPELINED).on(node);
    NodeOrderFn fn = nodeOrder(map("resources", map("cpu", strategy("MostAllocated", 1))));
    FakeTask task = pending("cpu", "100m");
    assertThat(fn.score(task, node)).isCloseTo(100, within(1e-8));
    job.task("r").requests("cpu", "200m").status(TaskStatus.RELEASING).on(node);
    assertThat(fn.score(task, node)).isCloseTo(300, within(1e-8));
  }

  @Test
  void score_scalesByPluginWeight() {
    FakeNode node = node("n", alloc("cpu", "1000m", "memory", "1000"));
    NodeOrderFn fn =
        nodeOrder(
            map(
                "resourceStrategyFitWeight",
                3,
                "resources",
                map("cpu", strategy("MostAllocated", 1))));
    assertThat(fn.score(pending("cpu", "250m"), node)).isCloseTo(75, within(1e-8));
  }

  // ------------------------------------------------------------ Volcano's plugin test (extended
  // resources)

  @Test
  void score_extendedResources_asInVolcanosPluginTest() {
    FakeNode n1 =
        node("n1", alloc("cpu", "4", "memory", "4Gi", "pods", "10", "nvidia.com/gpu", "10"));
    FakeNode n2 =
        node("n2", alloc("cpu", "4", "memory", "4Gi", "pods", "10", "nvidia.com/gpu", "5"));
    FakeNode n3 =
        node("n3", alloc("cpu", "4", "memory", "4Gi", "pods", "10", "example.com/foo", "10"));
    FakeNode n4 =
        node("n4", alloc("cpu", "4", "memory", "4Gi", "pods", "10", "example.com/foo", "5"));
    NodeOrderFn fn =
        nodeOrder(
            map(
                "resourceStrategyFitWeight",
                10,
                "resources",
                map(
                    "nvidia.com/gpu",
                    strategy("MostAllocated", 1),
                    "example.com/foo",
                    strategy("LeastAllocated", 1))));
    FakeTask p1 = pending("cpu", "1", "memory", "1Gi", "example.com/foo", "2");
    FakeTask p3 = pending("cpu", "1", "memory", "10Gi", "nvidia.com/gpu", "2");
    FakeTask p4 = pending("cpu", "1", "memory", "1Gi", "nvidia.com/gpu", "3");
    assertThat(
            new double[] {fn.score(p1, n1), fn.score(p1, n2), fn.score(p1, n3), fn.score(p1, n4)})
        .containsExactly(new double[] {0, 0, 800, 600}, within(1e-8));
    assertThat(
            new double[] {fn.score(p3, n1), fn.score(p3, n2), fn.score(p3, n3), fn.score(p3, n4)})
        .containsExactly(new double[] {200, 400, 0, 0}, within(1e-8));
    assertThat(
            new double[] {fn.score(p4, n1), fn.score(p4, n2), fn.score(p4, n3), fn.score(p4, n4)})
        .containsExactly(new double[] {300, 600, 0, 0}, within(1e-8));
  }

  // ------------------------------------------------------------ wildcards and overrides

  @Test
  void score_wildcardPattern_scoresMatchingResources_exactNameWins() {
    FakeNode node =
        node(
            "n",
            alloc("cpu", "4", "memory", "4Gi", "nvidia.com/gpu", "10", "nvidia.com/mem", "10"));
    NodeOrderFn fn =
        nodeOrder(
            map(
                "resourceStrategyFitWeight",
                1,
                "resources",
                map(
                    "nvidia.com/*", strategy("MostAllocated", 1),
                    "nvidia.com/gpu", strategy("LeastAllocated", 1))));
    // mem via the pattern: 4/10 MostAllocated; gpu exactly: (10 − 4)/10 LeastAllocated.
    assertThat(fn.score(pending("nvidia.com/mem", "4"), node)).isCloseTo(40, within(1e-8));
    assertThat(fn.score(pending("nvidia.com/gpu", "4"), node)).isCloseTo(60, within(1e-8));
  }

  @Test
  void score_podAnnotations_overrideTypeAndWeights() {
    FakeNode node = node("n", alloc("cpu", "1000m", "memory", "1000"));
    NodeOrderFn fn =
        nodeOrder(
            map(
                "resourceStrategyFitWeight",
                1,
                "resources",
                map("cpu", strategy("LeastAllocated", 1))));
    assertThat(fn.score(pending("cpu", "200m", "memory", "500"), node)).isCloseTo(80, within(1e-8));
    FakeTask typed =
        pending("cpu", "200m", "memory", "500")
            .annotation(PodOverrides.SCORING_TYPE, "MostAllocated");
    assertThat(fn.score(typed, node)).isCloseTo(20, within(1e-8));
    FakeTask weighted =
        pending("cpu", "200m", "memory", "500")
            .annotation(PodOverrides.WEIGHTS, "{\"cpu\": 1, \"memory\": 3}");
    // cpu Least 0.8·1, memory (not configured: LeastAllocated) 0.5·3 → 2.3 / 4.
    assertThat(fn.score(weighted, node)).isCloseTo(57.5, within(1e-8));
  }

  @Test
  void score_cachedPlan_followsTheTaskAsked() {
    FakeNode node = node("n", alloc("cpu", "1000m", "memory", "1000"));
    NodeOrderFn fn =
        nodeOrder(
            map(
                "resourceStrategyFitWeight",
                1,
                "resources",
                map("cpu", strategy("MostAllocated", 1))));
    FakeTask a = pending("cpu", "100m");
    FakeTask b = pending("cpu", "600m");
    assertThat(fn.score(a, node)).isCloseTo(10, within(1e-8));
    assertThat(fn.score(b, node)).isCloseTo(60, within(1e-8));
    assertThat(fn.score(a, node)).isCloseTo(10, within(1e-8));
  }

  // ------------------------------------------------------------ registration

  @Test
  void open_defaults_registerNodeOrderOnly() {
    RecordingExtensions ext = open(Map.of());
    assertThat(ext.points()).containsExactly(ExtensionPoint.NODE_ORDER);
  }

  @Test
  void open_zeroFitWeightWithoutSra_registersNothing() {
    assertThat(open(map("resourceStrategyFitWeight", 0)).points()).isEmpty();
  }

  @Test
  void open_proportionalEnabled_registersThePredicate() {
    RecordingExtensions ext =
        open(map("resourceStrategyFitWeight", 0, "proportional", map("enable", true)));
    assertThat(ext.points()).containsExactly(ExtensionPoint.PREDICATE);
  }

  // ------------------------------------------------------------ node locality

  @Test
  void locality_isTheRequestAndTheOverrideAnnotations_forThePredicateAndTheScore() {
    RecordingExtensions ext =
        open(map("resourceStrategyFitWeight", 1, "proportional", map("enable", true)));
    var predicate = ext.locality(ExtensionPoint.PREDICATE);
    var score = ext.locality(ExtensionPoint.NODE_ORDER);
    FakeTask a = pending("cpu", "1", "memory", "2Gi");
    FakeTask sameShape = pending("cpu", "1", "memory", "2Gi");
    FakeTask bigger = pending("cpu", "2", "memory", "2Gi");
    FakeTask overridden =
        pending("cpu", "1", "memory", "2Gi").annotation(PodOverrides.SCORING_TYPE, "MostAllocated");

    assertThat(predicate.taskKey(a)).isEqualTo(predicate.taskKey(sameShape));
    assertThat(score.taskKey(a)).isEqualTo(score.taskKey(sameShape));
    assertThat(score.taskKey(bigger)).isNotEqualTo(score.taskKey(a));
    assertThat(score.taskKey(overridden)).isNotEqualTo(score.taskKey(a));
  }

  // ------------------------------------------------------------ sra

  private static Map<String, Object> sra(int weight, String resources, Object resourceWeight) {
    Map<String, Object> sra = map("enable", true, "weight", weight, "resources", resources);
    if (resourceWeight != null) {
      sra.put("resourceWeight", resourceWeight);
    }
    return map("resourceStrategyFitWeight", 0, "sra", sra);
  }

  @Test
  void sra_prefersNodesWithoutTheScarceResources() {
    FakeNode gpu =
        node("gpu", alloc("cpu", "4", "memory", "4Gi", "pods", "10", "nvidia.com/gpu", "8"));
    FakeNode plain = node("plain", alloc("cpu", "4", "memory", "4Gi", "pods", "10"));
    FakeNode both =
        node(
            "both",
            alloc(
                "cpu",
                "4",
                "memory",
                "4Gi",
                "pods",
                "10",
                "nvidia.com/gpu",
                "8",
                "example.com/fpga",
                "1"));
    NodeOrderFn fn =
        nodeOrder(sra(10, "nvidia.com/gpu,example.com/fpga", map("nvidia.com/gpu", 3)));
    FakeTask task = pending("cpu", "1");
    assertThat(fn.score(task, plain)).isCloseTo(1000, within(1e-8));
    // gpu weight 3 of 4: (1 − 3/4) · 100 · 10.
    assertThat(fn.score(task, gpu)).isCloseTo(250, within(1e-8));
    assertThat(fn.score(task, both)).isCloseTo(0, within(1e-8));
  }

  @Test
  void sra_nodeLackingARequestedResource_scoresZero() {
    FakeNode plain = node("plain", alloc("cpu", "4", "memory", "4Gi", "pods", "10"));
    NodeOrderFn fn = nodeOrder(sra(10, "nvidia.com/gpu", null));
    assertThat(fn.score(pending("cpu", "1", "example.com/foo", "1"), plain)).isZero();
    // Nor does a node without a pods allocatable pass (the request always has pods).
    FakeNode noPods = node("no-pods", alloc("cpu", "4", "memory", "4Gi"));
    assertThat(fn.score(pending("cpu", "1"), noPods)).isZero();
  }

  @Test
  void sra_weightsSummingToZero_scoreTheRawSum() {
    FakeNode plain = node("plain", alloc("cpu", "4", "memory", "4Gi", "pods", "10"));
    NodeOrderFn fn = nodeOrder(sra(10, "nvidia.com/gpu", map("nvidia.com/gpu", 0)));
    assertThat(fn.score(pending("cpu", "1"), plain)).isZero();
  }

  @Test
  void sra_addsToTheFitPart() {
    FakeNode plain = node("plain", alloc("cpu", "1000m", "memory", "1000", "pods", "10"));
    Map<String, Object> args = sra(2, "nvidia.com/gpu", null);
    args.put("resourceStrategyFitWeight", 1);
    args.put("resources", map("cpu", strategy("MostAllocated", 1)));
    assertThat(nodeOrder(args).score(pending("cpu", "300m"), plain)).isCloseTo(230, within(1e-8));
  }

  // ------------------------------------------------------------ proportional

  private PredicateFn proportional() {
    return open(map(
            "proportional",
            map(
                "enable",
                true,
                "resources",
                "nvidia.com/gpu",
                "resourceProportion",
                map("nvidia.com/gpu.cpu", 4, "nvidia.com/gpu.memory", 8))))
        .get(ExtensionPoint.PREDICATE);
  }

  @Test
  void proportional_reservesCpuPerIdleDevice() {
    // 8 idle GPUs reserve 32 cores of the 40; memory 8 · 8 · 10^9 = 64e9 of 100e9.
    FakeNode node = node("n", alloc("cpu", "40", "memory", "100G", "nvidia.com/gpu", "8"));
    PredicateFn fn = proportional();
    assertThat(fn.check(pending("cpu", "8", "memory", "36G"), node).isSuccess()).isTrue();
    Status tooMuchCpu = fn.check(pending("cpu", "8001m"), node);
    assertThat(tooMuchCpu.code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
    assertThat(tooMuchCpu.reasons())
        .containsExactly("proportional of resource nvidia.com/gpu check failed");
    assertThat(fn.check(pending("cpu", "1", "memory", "36000000001"), node).code())
        .isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
  }

  @Test
  void proportional_usesIdleDevicesOnly() {
    FakeNode node =
        node(
            "n",
            alloc("cpu", "40", "memory", "100G", "nvidia.com/gpu", "8"),
            "nvidia.com/gpu",
            "4",
            "cpu",
            "10");
    // Idle: 30 cores, 4 GPUs reserving 16 → a 14-core task fits, 15 does not.
    PredicateFn fn = proportional();
    assertThat(fn.check(pending("cpu", "14"), node).isSuccess()).isTrue();
    assertThat(fn.check(pending("cpu", "15"), node).isSuccess()).isFalse();
  }

  @Test
  void proportional_taskRequestingTheDevice_passes() {
    FakeNode node = node("n", alloc("cpu", "40", "memory", "100G", "nvidia.com/gpu", "8"));
    assertThat(proportional().check(pending("cpu", "39", "nvidia.com/gpu", "1"), node).isSuccess())
        .isTrue();
  }

  @Test
  void proportional_nodeWithoutTheDevice_passes() {
    FakeNode node = node("n", alloc("cpu", "40", "memory", "100G"));
    assertThat(proportional().check(pending("cpu", "40"), node).isSuccess()).isTrue();
  }

  @Test
  void factory_makesThePluginFromConfArguments() {
    ResourceStrategyFitPluginFactory factory = new ResourceStrategyFitPluginFactory();
    assertThat(factory.name()).isEqualTo("resource-strategy-fit");
    assertThat(factory.create(PluginArguments.empty("resource-strategy-fit")).name())
        .isEqualTo("resource-strategy-fit");
  }
}
