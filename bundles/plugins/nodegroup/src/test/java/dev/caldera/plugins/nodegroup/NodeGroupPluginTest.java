package dev.caldera.plugins.nodegroup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.NodeOrderFn;
import dev.caldera.api.extension.PredicateFn;
import dev.caldera.api.extension.Status;
import dev.caldera.api.extension.Status.Code;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.NodeGroupAffinity;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeQueue;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.RecordingExtensions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The cases of Volcano's {@code nodegroup_test.go}, plus the limits, hierarchy and quirks. */
class NodeGroupPluginTest {

  private static final String LABEL = NodeGroupPlugin.GROUP_LABEL;

  private final FakeSession session = new FakeSession();
  private RecordingExtensions extensions;

  private static NodeGroupAffinity groups(List<String> required, List<String> preferred) {
    return new NodeGroupAffinity(required, preferred);
  }

  /**
   * Volcano's q1: required {group1, group3}, preferred {group3}; anti {group2, group4}/{group4}.
   */
  private FakeQueue volcanoQueue1(String name) {
    return session
        .addQueue(name)
        .nodeGroupAffinity(groups(List.of("group1", "group3"), List.of("group3")))
        .nodeGroupAntiAffinity(groups(List.of("group2", "group4"), List.of("group4")));
  }

  /** Volcano's n1..n5: group1..group4 and one node without the label. */
  private void volcanoNodes() {
    session.addNode("n1").allocatable("cpu", "2", "memory", "4Gi").label(LABEL, "group1");
    session.addNode("n2").allocatable("cpu", "4", "memory", "16Gi").label(LABEL, "group2");
    session.addNode("n3").allocatable("cpu", "4", "memory", "16Gi").label(LABEL, "group3");
    session.addNode("n4").allocatable("cpu", "4", "memory", "16Gi").label(LABEL, "group4");
    session.addNode("n5").allocatable("cpu", "4", "memory", "16Gi");
  }

  private FakeTask pendingTask(String queue) {
    return session.addJob("c1/pg").queue(queue).task("p").requests("cpu", "2", "memory", "4Gi");
  }

  private void open(Map<String, Object> arguments, boolean hierarchy) {
    NodeGroupPlugin plugin =
        (NodeGroupPlugin)
            new NodeGroupPluginFactory()
                .create(new PluginArguments("nodegroup", arguments, hierarchy));
    extensions = RecordingExtensions.open(plugin, session);
  }

  private Map<String, Double> scores(FakeTask task) {
    NodeOrderFn fn = extensions.get(ExtensionPoint.NODE_ORDER);
    Map<String, Double> out = new LinkedHashMap<>();
    session.nodes().forEach(n -> out.put(n.name(), fn.score(task, n)));
    return out;
  }

  private Map<String, Code> codes(FakeTask task) {
    PredicateFn fn = extensions.get(ExtensionPoint.PREDICATE);
    Map<String, Code> out = new LinkedHashMap<>();
    session.nodes().forEach(n -> out.put(n.name(), fn.check(task, n).code()));
    return out;
  }

  private Status status(FakeTask task, String node) {
    return extensions.get(ExtensionPoint.PREDICATE).check(task, session.node(node));
  }

  private static Map<String, Double> expectedScores(double... perNode) {
    Map<String, Double> out = new LinkedHashMap<>();
    for (int i = 0; i < perNode.length; i++) {
      out.put("n" + (i + 1), perNode[i]);
    }
    return out;
  }

  private static Map<String, Code> expectedCodes(Code... perNode) {
    Map<String, Code> out = new LinkedHashMap<>();
    for (int i = 0; i < perNode.length; i++) {
      out.put("n" + (i + 1), perNode[i]);
    }
    return out;
  }

  private static final Code OK = Code.SUCCESS;
  private static final Code NO = Code.UNSCHEDULABLE_AND_UNRESOLVABLE;

  // ---------------------------------------------------------------- Volcano's TestNodeGroup

  @Test
  void softConstraintsSubsetOfHard_scoresAndFilters() {
    volcanoNodes();
    volcanoQueue1("q1");
    FakeTask task = pendingTask("q1");
    open(Map.of(), false);

    assertThat(scores(task)).isEqualTo(expectedScores(100, 0, 150, -1, 0));
    assertThat(codes(task)).isEqualTo(expectedCodes(OK, NO, OK, OK, NO));
  }

  @Test
  void softConstraintsNotSubsetOfHard_scoresAndFilters() {
    volcanoNodes();
    session
        .addQueue("q2")
        .nodeGroupAffinity(groups(List.of("group1"), List.of("group3")))
        .nodeGroupAntiAffinity(groups(List.of("group2"), List.of("group4")));
    FakeTask task = pendingTask("q2");
    open(Map.of(), false);

    assertThat(scores(task)).isEqualTo(expectedScores(100, 0, 50, -1, 0));
    assertThat(codes(task)).isEqualTo(expectedCodes(OK, NO, OK, OK, NO));
  }

  @Test
  void notStrict_queueWithoutAffinity_usesOnlyUnlabelledNodes() {
    volcanoNodes();
    session.addQueue("root-no-affinity");
    FakeTask task = pendingTask("root-no-affinity");
    open(Map.of("strict", false), false);

    assertThat(scores(task)).isEqualTo(expectedScores(0, 0, 0, 0, 0));
    assertThat(codes(task)).isEqualTo(expectedCodes(NO, NO, NO, NO, OK));
    assertThat(status(task, "n1").reasons())
        .containsExactly(NodeGroupPlugin.AFFINITY_NOT_SPECIFIED);
  }

  @Test
  void hierarchy_queueInheritsFromParent() {
    volcanoNodes();
    session
        .addQueue("root")
        .nodeGroupAffinity(groups(List.of("group2"), List.of()))
        .nodeGroupAntiAffinity(groups(List.of("group1"), List.of()));
    volcanoQueue1("q1").parent("root");
    session.addQueue("q1-child").parent("q1");
    FakeTask task = pendingTask("q1-child");
    open(Map.of(), true);

    // q1's own affinity, not root's.
    assertThat(scores(task)).isEqualTo(expectedScores(100, 0, 150, -1, 0));
    assertThat(codes(task)).isEqualTo(expectedCodes(OK, NO, OK, OK, NO));
  }

  @Test
  void hierarchy_queueInheritsFromNearestAncestorWithAffinity() {
    volcanoNodes();
    volcanoQueue1("root");
    session.addQueue("q-no-affinity").parent("root");
    session.addQueue("q-no-affinity-child").parent("q-no-affinity");
    FakeTask task = pendingTask("q-no-affinity-child");
    open(Map.of(), true);

    assertThat(scores(task)).isEqualTo(expectedScores(100, 0, 150, -1, 0));
    assertThat(codes(task)).isEqualTo(expectedCodes(OK, NO, OK, OK, NO));
  }

  @Test
  void hierarchy_emptyParentMeansRoot() {
    volcanoNodes();
    volcanoQueue1("root");
    session.addQueue("top");
    FakeTask task = pendingTask("top");
    open(Map.of(), true);

    assertThat(scores(task)).isEqualTo(expectedScores(100, 0, 150, -1, 0));
  }

  @Test
  void noHierarchy_childDoesNotInherit() {
    volcanoNodes();
    volcanoQueue1("root");
    session.addQueue("q-no-affinity").parent("root");
    FakeTask task = pendingTask("q-no-affinity");
    open(Map.of(), false);

    assertThat(scores(task)).isEqualTo(expectedScores(0, 0, 0, 0, 0));
    assertThat(codes(task)).isEqualTo(expectedCodes(NO, NO, NO, NO, NO));
  }

  @Test
  void hierarchy_cycleWithoutAffinity_inheritsNothing() {
    volcanoNodes();
    session.addQueue("a").parent("b");
    session.addQueue("b").parent("a");
    FakeTask task = pendingTask("a");
    open(Map.of(), true);

    assertThat(scores(task)).isEqualTo(expectedScores(0, 0, 0, 0, 0));
  }

  @Test
  void queueWithoutAffinity_strict_refusesEveryNode() {
    volcanoNodes();
    session.addQueue("q-no-affinity").parent("root");
    FakeTask task = pendingTask("q-no-affinity");
    open(Map.of(), false);

    assertThat(scores(task)).isEqualTo(expectedScores(0, 0, 0, 0, 0));
    assertThat(codes(task)).isEqualTo(expectedCodes(NO, NO, NO, NO, NO));
    assertThat(status(task, "n5").reasons()).containsExactly(NodeGroupPlugin.LABEL_NOT_FOUND);
    assertThat(status(task, "n1").reasons())
        .containsExactly(NodeGroupPlugin.AFFINITY_NOT_SPECIFIED);
  }

  @Test
  void preferredOrder_earlierGroupsScoreHigher() {
    volcanoNodes();
    session.addQueue("q3").nodeGroupAffinity(groups(List.of(), List.of("group1", "group3")));
    FakeTask task = pendingTask("q3");
    open(Map.of("enablePreferredOrder", true), false);

    // 50·(2−0)/2 and 50·(2−1)/2.
    assertThat(scores(task)).isEqualTo(expectedScores(50, 0, 25, 0, 0));
    assertThat(codes(task)).isEqualTo(expectedCodes(OK, NO, OK, NO, NO));
  }

  @Test
  void preferredOrderOff_everyPreferredGroupScoresFifty() {
    volcanoNodes();
    session.addQueue("q3").nodeGroupAffinity(groups(List.of(), List.of("group1", "group3")));
    FakeTask task = pendingTask("q3");
    open(Map.of(), false);

    assertThat(scores(task)).isEqualTo(expectedScores(50, 0, 50, 0, 0));
  }

  @Test
  void preferredOrder_requiredAndPreferredAdd() {
    volcanoNodes();
    session
        .addQueue("q")
        .nodeGroupAffinity(groups(List.of("group3"), List.of("group1", "group2", "group3")));
    FakeTask task = pendingTask("q");
    open(Map.of("enablePreferredOrder", true), false);

    // group3: 100 + 50·(3−2)/3.
    assertThat(scores(task).get("n3")).isEqualTo(100 + 50.0 / 3);
    assertThat(scores(task).get("n2")).isEqualTo(50.0 * 2 / 3);
  }

  @Test
  void antiPreferred_overridesScoreToMinusOne() {
    volcanoNodes();
    session
        .addQueue("q")
        .nodeGroupAffinity(groups(List.of("group1"), List.of("group1")))
        .nodeGroupAntiAffinity(groups(List.of(), List.of("group1")));
    FakeTask task = pendingTask("q");
    open(Map.of(), false);

    assertThat(scores(task).get("n1")).isEqualTo(-1);
  }

  @Test
  void quirk19_preferredAntiAffinityOverridesRequiredAntiAffinity() {
    volcanoNodes();
    session
        .addQueue("q")
        .nodeGroupAntiAffinity(groups(List.of("group1", "group2"), List.of("group1")));
    FakeTask task = pendingTask("q");
    open(Map.of(), false);

    assertThat(status(task, "n1").isSuccess()).isTrue();
    assertThat(status(task, "n2").reasons()).containsExactly(NodeGroupPlugin.UNSATISFIED);
    // group3 is in no list at all: anti-affinity alone does not admit it.
    assertThat(status(task, "n3").reasons()).containsExactly(NodeGroupPlugin.UNSATISFIED);
  }

  @Test
  void notStrict_queueWithAffinity_stillRefusesUnlabelledNodes() {
    volcanoNodes();
    volcanoQueue1("q1");
    FakeTask task = pendingTask("q1");
    open(Map.of("strict", false), false);

    assertThat(status(task, "n5").reasons()).containsExactly(NodeGroupPlugin.LABEL_NOT_FOUND);
  }

  @Test
  void affinityWithEmptyLists_countsAsUnset() {
    volcanoNodes();
    session.addQueue("q").nodeGroupAffinity(groups(List.of(), List.of()));
    FakeTask task = pendingTask("q");
    open(Map.of("strict", false), false);

    assertThat(status(task, "n5").isSuccess()).isTrue();
    assertThat(status(task, "n1").reasons())
        .containsExactly(NodeGroupPlugin.AFFINITY_NOT_SPECIFIED);
  }

  @Test
  void taskWithoutJob_isAnErrorAndScoresZero() {
    volcanoNodes();
    volcanoQueue1("q1");
    FakeTask orphan = new FakeTask("c1/orphan").jobId("c1/gone");
    open(Map.of(), false);

    Status s = status(orphan, "n1");
    assertThat(s.code()).isEqualTo(Code.ERROR);
    assertThat(s.message()).contains("c1/gone");
    assertThat(scores(orphan)).isEqualTo(expectedScores(0, 0, 0, 0, 0));
  }

  @Test
  void jobInUnknownQueue_isTreatedAsUnsetAffinity() {
    volcanoNodes();
    FakeTask task = pendingTask("missing");
    open(Map.of("strict", false), false);

    assertThat(codes(task)).isEqualTo(expectedCodes(NO, NO, NO, NO, OK));
    assertThat(scores(task)).isEqualTo(expectedScores(0, 0, 0, 0, 0));
  }

  // ---------------------------------------------------------------- node locality

  @Test
  void locality_isTheQueue_unlessTheQueueHasGroupLimits() {
    limitNodes();
    limitQueue(null);
    session
        .addQueue("limited")
        .annotation(GroupLimits.ANNOTATION, "{\"group1\": {\"cpu\": \"4\"}}");
    FakeTask free = limitTask("free");
    FakeTask limited =
        session
            .addJob("limit/pg-l")
            .queue("limited")
            .task("l")
            .requests("cpu", "2", "memory", "4Gi");
    open(Map.of(), false);

    var check = extensions.locality(ExtensionPoint.PREDICATE);
    var score = extensions.locality(ExtensionPoint.NODE_ORDER);
    assertThat(check.taskKey(free)).isEqualTo("q");
    assertThat(score.taskKey(free)).isEqualTo("q");
    // What a limited queue holds in a group changes with allocations on any node of the group.
    assertThat(check.taskKey(limited)).isNull();
    assertThat(score.taskKey(limited)).isEqualTo("limited");
  }

  // ---------------------------------------------------------------- Volcano's resource limits

  private void limitNodes() {
    session
        .addNode("n1")
        .allocatable("cpu", "16", "memory", "64Gi", "pods", "32")
        .label(LABEL, "group1");
    session
        .addNode("n2")
        .allocatable("cpu", "16", "memory", "64Gi", "pods", "32")
        .label(LABEL, "group2");
  }

  private FakeQueue limitQueue(String limits) {
    FakeQueue q =
        session
            .addQueue("q")
            .nodeGroupAffinity(groups(List.of("group1", "group2"), List.of("group1")));
    if (limits != null) {
      q.annotation(GroupLimits.ANNOTATION, limits);
    }
    return q;
  }

  private FakeTask limitTask(String name) {
    return session
        .addJob("limit/pg-" + name)
        .queue("q")
        .task(name)
        .requests("cpu", "2", "memory", "4Gi");
  }

  @Test
  void limits_noAnnotation_keepsExistingBehaviour() {
    limitNodes();
    limitQueue(null);
    FakeTask task = limitTask("pending");
    open(Map.of(), false);

    assertThat(codes(task)).isEqualTo(expectedCodes(OK, OK));
  }

  @Test
  void limits_underLimit_permits() {
    limitNodes();
    limitQueue("{\"group1\":{\"cpu\":\"3\",\"memory\":\"8Gi\"}}");
    FakeTask task = limitTask("pending");
    open(Map.of(), false);

    assertThat(codes(task)).isEqualTo(expectedCodes(OK, OK));
  }

  @Test
  void limits_omittedDimension_isUnlimited() {
    limitNodes();
    limitQueue("{\"group1\":{\"cpu\":\"3\"}}");
    FakeTask task = limitTask("pending").requests("memory", "100Gi");
    open(Map.of(), false);

    assertThat(codes(task)).isEqualTo(expectedCodes(OK, OK));
  }

  @Test
  void limits_specifiedDimension_isEnforced() {
    limitNodes();
    limitQueue("{\"group1\":{\"cpu\":\"1\"}}");
    FakeTask task = limitTask("pending");
    open(Map.of(), false);

    assertThat(codes(task)).isEqualTo(expectedCodes(NO, OK));
    assertThat(status(task, "n1").reasons()).containsExactly(NodeGroupPlugin.LIMIT_EXCEEDED);
  }

  @Test
  void limits_countRunningTasksOfTheQueue() {
    limitNodes();
    limitQueue("{\"group1\":{\"cpu\":\"3\",\"memory\":\"8Gi\"}}");
    limitTask("used").status(TaskStatus.RUNNING).on(session.node("n1"));
    FakeTask task = limitTask("pending");
    open(Map.of(), false);

    assertThat(codes(task)).isEqualTo(expectedCodes(NO, OK));
  }

  @Test
  void limits_exactlyAtTheLimit_isAllowed_oneMilliMoreIsNot() {
    limitNodes();
    limitQueue("{\"group1\":{\"cpu\":\"2\"},\"group2\":{\"cpu\":\"1999m\"}}");
    FakeTask task = limitTask("pending");
    open(Map.of(), false);

    assertThat(codes(task)).isEqualTo(expectedCodes(OK, NO));
  }

  @Test
  void limits_numbersAndNullsAreAccepted() {
    limitNodes();
    limitQueue("{\"group1\": {\"cpu\": 2, \"memory\": null}, \"group2\": null}");
    FakeTask task = limitTask("pending");
    open(Map.of(), false);

    // memory limited to 0 on group1; group2 lists nothing.
    assertThat(codes(task)).isEqualTo(expectedCodes(NO, OK));
  }

  @Test
  void limits_invalidAnnotation_refusesEveryNodeForTheQueue() {
    limitNodes();
    limitQueue("{\"group1\":{\"cpu\":");
    FakeTask task = limitTask("pending");
    open(Map.of(), false);

    assertThat(codes(task)).isEqualTo(expectedCodes(NO, NO));
    assertThat(status(task, "n2").reasons()).containsExactly(NodeGroupPlugin.LIMIT_INVALID);
  }

  @Test
  void limits_invalidQuantity_isAnInvalidAnnotation() {
    limitNodes();
    limitQueue("{\"group1\":{\"cpu\":\"lots\"}}");
    FakeTask task = limitTask("pending");
    open(Map.of(), false);

    assertThat(status(task, "n2").reasons()).containsExactly(NodeGroupPlugin.LIMIT_INVALID);
  }

  @Test
  void limits_groupNotAnObject_isAnInvalidAnnotation() {
    limitNodes();
    limitQueue("{\"group1\":[1]}");
    FakeTask task = limitTask("pending");
    open(Map.of(), false);

    assertThat(status(task, "n1").reasons()).containsExactly(NodeGroupPlugin.LIMIT_INVALID);
  }

  @Test
  void limits_allocationEvents_updateTheGroupUsage() {
    limitNodes();
    limitQueue("{\"group1\":{\"cpu\":\"3\",\"memory\":\"8Gi\"}}");
    FakeTask first = limitTask("pending-1");
    FakeTask second = limitTask("pending-2");
    open(Map.of(), false);
    EventHandler handler = extensions.get(ExtensionPoint.EVENT_HANDLER);

    assertThat(status(first, "n1").isSuccess()).isTrue();
    first.status(TaskStatus.ALLOCATED).on(session.node("n1"));
    assertThat(handler.allocated(first).isSuccess()).isTrue();
    assertThat(status(second, "n1").reasons()).containsExactly(NodeGroupPlugin.LIMIT_EXCEEDED);

    handler.deallocated(first);
    assertThat(status(second, "n1").isSuccess()).isTrue();
  }

  @Test
  void limits_areNotInheritedWithTheAffinity() {
    limitNodes();
    session
        .addQueue("root")
        .nodeGroupAffinity(groups(List.of("group1"), List.of()))
        .annotation(GroupLimits.ANNOTATION, "{\"group1\":{\"cpu\":\"1\"}}");
    session.addQueue("child").parent("root");
    FakeTask task =
        session.addJob("ns/pg").queue("child").task("t").requests("cpu", "2", "memory", "4Gi");
    open(Map.of(), true);

    assertThat(status(task, "n1").isSuccess()).isTrue();
  }

  @Test
  void seedScenario_requiredGpuPoolBeatsLargerCpuPool() {
    // seeds/nodegroup-affinity.yaml
    FakeNode cpu =
        session
            .addNode("cpu-1")
            .allocatable("pods", "110", "cpu", "64", "memory", "256Gi")
            .label(LABEL, "cpu-only-pool");
    FakeNode gpu =
        session
            .addNode("gpu-1")
            .allocatable("pods", "110", "cpu", "32", "memory", "128Gi")
            .label(LABEL, "gpu-pool");
    session
        .addQueue("gpu-queue")
        .nodeGroupAffinity(groups(List.of("gpu-pool"), List.of()))
        .nodeGroupAntiAffinity(groups(List.of("cpu-only-pool"), List.of()));
    FakeTask task =
        session.addJob("ns/train").queue("gpu-queue").task("train-0").requests("cpu", "1");
    open(Map.of("strict", true), false);
    PredicateFn predicate = extensions.get(ExtensionPoint.PREDICATE);

    assertThat(predicate.check(task, cpu).reasons()).containsExactly(NodeGroupPlugin.UNSATISFIED);
    assertThat(predicate.check(task, gpu).isSuccess()).isTrue();
    assertThat(extensions.get(ExtensionPoint.NODE_ORDER).score(task, gpu)).isEqualTo(100);
  }

  @Test
  void open_registersPredicateNodeOrderAndEventHandler() {
    open(Map.of(), false);
    assertThat(extensions.points())
        .containsExactlyInAnyOrder(
            ExtensionPoint.PREDICATE, ExtensionPoint.NODE_ORDER, ExtensionPoint.EVENT_HANDLER);
  }
}
