package dev.caldera.plugins.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.extension.AllocatableFn;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.JobEnqueueableFn;
import dev.caldera.api.extension.QueueOrderFn;
import dev.caldera.api.extension.VictimQueueOrderFn;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.PodCondition;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.RecordingExtensions;
import org.junit.jupiter.api.Test;

/**
 * The seed's 7-queue tree: root → team-a (training, inference) and team-b (batch, interactive),
 * with deserved, capability and guarantee at every level, on one 100-CPU node.
 */
class HierarchyTest {

  private static final double GI = 1L << 30;

  private final FakeSession session = new FakeSession();
  private final CapacityPlugin plugin =
      new CapacityPlugin(new CapacityArguments(0, true, false, true));
  private final FakeNode node =
      session.addNode("n1").allocatable("pods", "110", "cpu", "100", "memory", "400Gi");

  private RecordingExtensions open() {
    return RecordingExtensions.open(plugin, session);
  }

  private void sevenQueues() {
    session.addQueue("root");
    queue("team-a", "root", 60, 70, 20);
    queue("team-b", "root", 40, 50, 20);
    queue("training", "team-a", 40, 50, 10);
    queue("inference", "team-a", 20, 30, 10);
    queue("batch", "team-b", 30, 40, 15);
    queue("interactive", "team-b", 10, 20, 5);
  }

  /** A queue whose memory is four times its cpu, in Gi. */
  private void queue(String name, String parent, int deserved, int capability, int guarantee) {
    session
        .addQueue(name)
        .parent(parent)
        .deserved("cpu", "" + deserved, "memory", deserved * 4 + "Gi")
        .capability("cpu", "" + capability, "memory", capability * 4 + "Gi")
        .guarantee("cpu", "" + guarantee, "memory", guarantee * 4 + "Gi");
  }

  private FakeTask running(String queue, int cpu) {
    return job(queue, queue + "-run", PodGroupPhase.Running)
        .task("r")
        .requests("cpu", "" + cpu, "memory", cpu * 4 + "Gi")
        .status(TaskStatus.RUNNING)
        .on(node);
  }

  private FakeTask pending(String queue, String name, int cpu) {
    return job(queue, name, PodGroupPhase.Inqueue)
        .task("p")
        .requests("cpu", "" + cpu, "memory", cpu * 4 + "Gi");
  }

  private FakeJob job(String queue, String name, PodGroupPhase phase) {
    return session.addJob("ns/" + name).queue(queue).phase(phase);
  }

  private void seedWorkload() {
    running("training", 30);
    running("inference", 15);
    running("batch", 20);
    running("interactive", 10);
  }

  private double share(String queue) {
    return plugin.attr(queue).share;
  }

  @Test
  void registersVictimQueueOrderToo() {
    sevenQueues();

    assertThat(open().points())
        .contains(ExtensionPoint.VICTIM_QUEUE_ORDER, ExtensionPoint.QUEUE_ORDER);
  }

  @Test
  void allocations_addUpIntoEveryAncestor() {
    sevenQueues();
    seedWorkload();
    open();

    assertThat(plugin.attr("team-a").allocated.milliCpu()).isEqualTo(45_000);
    assertThat(plugin.attr("team-b").allocated.milliCpu()).isEqualTo(30_000);
    assertThat(plugin.attr("root").allocated.milliCpu()).isEqualTo(75_000);
    assertThat(plugin.attr("root").allocated.memory()).isEqualTo(300 * GI);
  }

  @Test
  void shares_followAnAllocationAtEveryLevel_trainingThirtyToForty() {
    sevenQueues();
    seedWorkload();
    EventHandler handler = open().get(ExtensionPoint.EVENT_HANDLER);
    assertThat(share("training")).isEqualTo(0.75);
    assertThat(share("team-a")).isEqualTo(0.75);
    assertThat(share("root")).isEqualTo(0.75);

    FakeTask more = pending("training", "more", 10).status(TaskStatus.ALLOCATED).on(node);
    handler.allocated(more);

    assertThat(share("training")).isEqualTo(1.0);
    assertThat(share("team-a")).isCloseTo(0.917, within(0.001)); // 55 / 60
    assertThat(share("root")).isCloseTo(0.85, within(1e-9)); // 85 / (60 + 40)

    handler.deallocated(more);
    assertThat(share("training")).isEqualTo(0.75);
    assertThat(share("team-a")).isEqualTo(0.75);
    assertThat(plugin.attr("root").allocated.milliCpu()).isEqualTo(75_000);
  }

  @Test
  void root_deservedAndGuaranteeAreTheSumsOfItsChildren() {
    sevenQueues();
    open();

    assertThat(plugin.attr("root").deserved.milliCpu()).isEqualTo(100_000);
    assertThat(plugin.attr("root").guarantee.milliCpu()).isEqualTo(40_000);
  }

  @Test
  void realCapability_isCapabilityWithinWhatTheSiblingsGuaranteesLeaveOfTheParent() {
    sevenQueues();
    open();

    // root is unlimited: team-a = min(∞ − 40 + 20, 70)
    assertThat(plugin.attr("team-a").realCapability.milliCpu()).isEqualTo(70_000);
    // training = min(70 − (10 + 10) + 10, 50) = 50; inference = min(60, 30) = 30
    assertThat(plugin.attr("training").realCapability.milliCpu()).isEqualTo(50_000);
    assertThat(plugin.attr("inference").realCapability.milliCpu()).isEqualTo(30_000);
    // batch = min(50 − (15 + 5) + 15, 40) = 40; interactive = min(30 + 5, 20) = 20
    assertThat(plugin.attr("batch").realCapability.milliCpu()).isEqualTo(40_000);
    assertThat(plugin.attr("interactive").realCapability.milliCpu()).isEqualTo(20_000);
  }

  @Test
  void realCapability_childWithoutCapabilityInheritsTheParentsIncludingScalars() {
    session.addNode("gpu").allocatable("pods", "110", "nvidia.com/gpu", "8");
    session.addQueue("root");
    session.addQueue("team").capability("cpu", "8", "nvidia.com/gpu", "4");
    session.addQueue("leaf").parent("team").capability("memory", "2Gi");
    open();

    QueueAttr leaf = plugin.attr("leaf");
    assertThat(leaf.capability.milliCpu()).isEqualTo(8000);
    assertThat(leaf.capability.get("nvidia.com/gpu")).isEqualTo(4000);
    assertThat(leaf.capability.memory()).isEqualTo(2 * GI);
    assertThat(leaf.realCapability.get("nvidia.com/gpu")).isEqualTo(4000);
    assertThat(leaf.realCapability.memory()).isEqualTo(2 * GI);
  }

  @Test
  void guarantee_ofAChildCountsInEveryAncestor() {
    session.addQueue("root");
    session.addQueue("eng");
    session.addQueue("prod").parent("eng").guarantee("cpu", "60");
    session.addQueue("dev").parent("eng").guarantee("cpu", "10");
    session.addQueue("biz").guarantee("cpu", "5");
    open();

    assertThat(plugin.attr("eng").guarantee.milliCpu()).isEqualTo(70_000);
    assertThat(plugin.attr("root").guarantee.milliCpu()).isEqualTo(75_000);
  }

  @Test
  void implicitRoot_hasTheClusterTotalAsCapabilityAndDeserved() {
    session.addQueue("a").guarantee("cpu", "30");
    session.addQueue("b");
    open();

    QueueAttr root = plugin.attr("root");
    assertThat(root.queue).isNull();
    assertThat(root.realCapability.milliCpu()).isEqualTo(100_000);
    assertThat(root.deserved.milliCpu()).isEqualTo(100_000);
    // b may hold what a's guarantee leaves: 100 − 30
    assertThat(plugin.attr("b").realCapability.milliCpu()).isEqualTo(70_000);
  }

  @Test
  void queueOrder_comparesLeavesOneLevelBelowTheirLowestCommonAncestor() {
    sevenQueues();
    running("training", 40);
    running("inference", 15);
    running("batch", 20);
    running("interactive", 10);
    QueueOrderFn order = open().get(ExtensionPoint.QUEUE_ORDER);

    // training itself (1.0) vs batch itself (0.67) would agree; the seed's point is that team-a
    // (55/60) against team-b (30/40) decides even when the leaves' own shares say otherwise.
    assertThat(share("team-a")).isGreaterThan(share("team-b"));
    assertThat(order.compare(session.queue("batch"), session.queue("training"))).isNegative();
    assertThat(order.compare(session.queue("interactive"), session.queue("inference")))
        .isNegative();
    // under the same parent the leaves' own shares decide: inference 15/20 < training 40/40
    assertThat(order.compare(session.queue("inference"), session.queue("training"))).isNegative();
  }

  @Test
  void queueOrder_subtreeShareWinsOverTheLeafsOwn() {
    sevenQueues();
    running("training", 4); // training 0.1, team-a (4 + 50) / 60 = 0.9
    running("inference", 50);
    running("batch", 24); // batch 0.8, team-b 0.6
    QueueOrderFn order = open().get(ExtensionPoint.QUEUE_ORDER);

    assertThat(share("training")).isLessThan(share("batch"));
    assertThat(order.compare(session.queue("batch"), session.queue("training"))).isNegative();
  }

  @Test
  void queueOrder_leavesBeforeOtherQueues() {
    sevenQueues();
    QueueOrderFn order = open().get(ExtensionPoint.QUEUE_ORDER);

    assertThat(order.compare(session.queue("training"), session.queue("team-b"))).isNegative();
    assertThat(order.compare(session.queue("team-a"), session.queue("batch"))).isPositive();
  }

  @Test
  void victimQueueOrder_evictsFromTheQueueClosestToTheEvictorFirst() {
    sevenQueues();
    VictimQueueOrderFn order = open().get(ExtensionPoint.VICTIM_QUEUE_ORDER);

    assertThat(
            order.compare(
                session.queue("inference"), session.queue("batch"), session.queue("training")))
        .isNegative();
    assertThat(
            order.compare(
                session.queue("batch"), session.queue("inference"), session.queue("training")))
        .isPositive();
    assertThat(
            order.compare(
                session.queue("batch"), session.queue("interactive"), session.queue("training")))
        .isZero();
  }

  @Test
  void allocatable_checksEveryLevelAndNamesTheAncestorWhoseLimitIsHit() {
    sevenQueues();
    seedWorkload();
    FakeTask training20 = pending("training", "t20", 20);
    FakeTask inference10 = pending("inference", "i10", 10);
    RecordingExtensions ext = open();
    AllocatableFn allocatable = ext.get(ExtensionPoint.ALLOCATABLE);

    // training: 30 + 20 = 50 ≤ 50, team-a: 45 + 20 = 65 ≤ 70
    assertThat(allocatable.test(session.queue("training"), training20)).isTrue();
    // inference: 15 + 10 = 25 ≤ 30, team-a: 45 + 10 = 55 ≤ 70
    assertThat(allocatable.test(session.queue("inference"), inference10)).isTrue();
    assertThat(session.events()).isEmpty();

    ext.get(ExtensionPoint.EVENT_HANDLER)
        .allocated(training20.status(TaskStatus.ALLOCATED).on(node));

    // team-a now holds 65: inference would still fit itself, but team-a would reach 75 > 70
    assertThat(allocatable.test(session.queue("inference"), inference10)).isFalse();
    assertThat(allocatable.test(session.queue("inference"), inference10)).isFalse();
    assertThat(session.events())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.kind()).isEqualTo("Pod");
              assertThat(e.key()).isEqualTo(inference10.key());
              assertThat(e.message())
                  .isEqualTo(
                      "queue resource quota insufficient: insufficient cpu, insufficient memory;"
                          + " queue inference (limit of ancestor team-a):"
                          + " cpu requested 10, total would be 75, limit 70;"
                          + " memory requested 40Gi, total would be 300Gi, limit 280Gi");
            });
  }

  @Test
  void allocatable_refusesANonLeafQueue() {
    sevenQueues();
    FakeTask task = pending("team-a", "in-parent", 1);

    AllocatableFn allocatable = open().get(ExtensionPoint.ALLOCATABLE);

    assertThat(allocatable.test(session.queue("team-a"), task)).isFalse();
  }

  @Test
  void jobInNonLeafQueue_isRefusedWithEventAndConditionWithoutBlockingOthers() {
    sevenQueues();
    FakeJob inParent = job("team-a", "in-parent", PodGroupPhase.Pending).minResources("cpu", "1");
    inParent.task("p").requests("cpu", "1");
    FakeJob inLeaf = job("batch", "in-leaf", PodGroupPhase.Pending).minResources("cpu", "1");
    FakeTask leafTask = inLeaf.task("p").requests("cpu", "1");
    RecordingExtensions ext = open();
    JobEnqueueableFn enqueueable = ext.get(ExtensionPoint.JOB_ENQUEUEABLE);

    assertThat(enqueueable.vote(inParent)).isEqualTo(Vote.REJECT);
    assertThat(enqueueable.vote(inLeaf)).isEqualTo(Vote.PERMIT);
    assertThat(ext.get(ExtensionPoint.ALLOCATABLE).test(session.queue("batch"), leafTask)).isTrue();
    PodCondition condition = session.condition(inParent, CapacityPlugin.CONDITION_TYPE);
    assertThat(condition.status()).isEqualTo("False");
    assertThat(condition.reason()).isEqualTo("NotLeafQueue");
    assertThat(condition.message()).contains("team-a is not a leaf queue").contains("training");
    assertThat(session.events())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.kind()).isEqualTo("PodGroup");
              assertThat(e.key()).isEqualTo("ns/in-parent");
              assertThat(e.type()).isEqualTo("Warning");
            });
    assertThat(session.condition(inLeaf, CapacityPlugin.CONDITION_TYPE)).isNull();
  }
}
