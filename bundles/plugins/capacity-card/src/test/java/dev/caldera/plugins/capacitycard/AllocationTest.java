package dev.caldera.plugins.capacitycard;

import static dev.caldera.plugins.capacitycard.Fixtures.gpuNode;
import static dev.caldera.plugins.capacitycard.Fixtures.messages;
import static dev.caldera.plugins.capacitycard.Fixtures.open;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.extension.AllocatableFn;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.PredicateFn;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.dsl.PolicyLibrary;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeQueue;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.RecordedEvent;
import dev.caldera.testkit.RecordingExtensions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AllocationTest {

  private static final Map<String, Object> UNLIMITED = Map.of("cardUnlimitedCpuMemory", true);

  private final FakeSession s = new FakeSession();
  private final FakeNode a1 = gpuNode(s, "a1", "A", 1);
  private final FakeNode b1 = gpuNode(s, "b1", "B", 2);
  private final FakeNode cpu = s.addNode("c1").allocatable("cpu", "32", "memory", "64Gi");
  private final FakeQueue q =
      s.addQueue("q").annotation("volcano.sh/card.quota", "{\"A\":1,\"B\":2}");
  private final FakeJob job = s.addJob("team/j").queue("q");

  private FakeTask pod(String name, String cards, int count) {
    return job.task(name)
        .annotation("volcano.sh/card.name", cards)
        .requests("cpu", "100m", "memory", "100Mi", "nvidia.com/gpu", Integer.toString(count));
  }

  @Test
  void allocatable_refusesWhenTheCardQuotaIsUsed_withTheIssuesMessageOnThePod() {
    pod("run", "A", 1).status(TaskStatus.RUNNING).on(a1);
    FakeTask next = pod("next", "A", 1);

    assertThat(open(s, UNLIMITED).get(ExtensionPoint.ALLOCATABLE).test(q, next)).isFalse();
    assertThat(s.events())
        .containsExactly(
            new RecordedEvent(
                "Pod",
                "team/next",
                "Warning",
                "InsufficientScalarQuota",
                "Queue <q> has insufficient <A> quota: requested <1>, total would be <2>, but"
                    + " capability is <1>"));
  }

  @Test
  void allocatable_multiModelNeedsRoomInOneModel_messageListsEachModel() {
    pod("run-a", "A", 1).status(TaskStatus.RUNNING).on(a1);
    pod("run-b", "B", 1).status(TaskStatus.RUNNING).on(b1);
    FakeTask one = pod("one", "A|B", 1);
    FakeTask two = pod("two", "A|B", 2);
    AllocatableFn allocatable = open(s, UNLIMITED).get(ExtensionPoint.ALLOCATABLE);

    assertThat(allocatable.test(q, one)).isTrue();
    assertThat(allocatable.test(q, two)).isFalse();
    assertThat(messages(s, "team/two"))
        .containsExactly(
            "Queue <q> has insufficient <A|B> quota: requested <2>, total would be <3|3>, but"
                + " capability is <1|2>");
  }

  @Test
  void allocatable_cpuAndMemoryOfNonCardPodsStayWithinCapability() {
    q.capability("cpu", "1", "memory", "1Gi");
    job.task("busy").requests("cpu", "800m", "memory", "256Mi").status(TaskStatus.RUNNING).on(cpu);
    FakeTask cpuHungry = job.task("cpu").requests("cpu", "300m");
    FakeTask memoryHungry = job.task("mem").requests("cpu", "100m", "memory", "800Mi");
    AllocatableFn allocatable = open(s, Map.of()).get(ExtensionPoint.ALLOCATABLE);

    assertThat(allocatable.test(q, cpuHungry)).isFalse();
    assertThat(allocatable.test(q, memoryHungry)).isFalse();
    assertThat(messages(s, "team/cpu"))
        .containsExactly(
            "Queue <q> has insufficient CPU quota: requested <300m>, total would be <1100m>, but"
                + " capability is <1>");
    assertThat(messages(s, "team/mem"))
        .containsExactly(
            "Queue <q> has insufficient memory quota: requested <800Mi>, total would be"
                + " <1056Mi>, but capability is <1Gi>");
  }

  @Test
  void allocatable_cardPodIgnoresCpuQuotaWhenUnlimited() {
    FakeTask card = pod("card", "B", 1);

    assertThat(open(s, UNLIMITED).get(ExtensionPoint.ALLOCATABLE).test(q, card)).isTrue();
    assertThat(open(s, Map.of()).get(ExtensionPoint.ALLOCATABLE).test(q, card)).isFalse();
  }

  @Test
  void mixedCardTypes_refusedWithAnEventSayingWhy() {
    FakeNode mig =
        s.addNode("m1")
            .label("nvidia.com/gpu.product", "NVIDIA-H20")
            .allocatable("nvidia.com/gpu", "7", "nvidia.com/mig-1g.24gb", "2");
    FakeTask mixed = pod("mixed", "A|NVIDIA-H20/mig-1g.24gb-mixed", 1);
    RecordingExtensions ext = open(s, UNLIMITED);

    assertThat(ext.get(ExtensionPoint.ALLOCATABLE).test(q, mixed)).isFalse();
    assertThat(ext.get(ExtensionPoint.PREDICATE).check(mixed, mig).isSuccess()).isFalse();
    assertThat(s.events())
        .containsExactly(
            new RecordedEvent(
                "Pod",
                "team/mixed",
                "Warning",
                "InvalidCardAnnotation",
                "volcano.sh/card.name: \"A|NVIDIA-H20/mig-1g.24gb-mixed\" mixes card types: A is"
                    + " counted in nvidia.com/gpu, NVIDIA-H20/mig-1g.24gb-mixed in"
                    + " nvidia.com/mig-1g.24gb; alternatives must use the same resource"));
  }

  @Test
  void unknownCard_refusedWithAnEvent_theRestSchedules() {
    FakeTask unknown = pod("unknown", "NVIDIA-X", 1);
    FakeTask fine = pod("fine", "B", 1);
    AllocatableFn allocatable = open(s, UNLIMITED).get(ExtensionPoint.ALLOCATABLE);

    assertThat(allocatable.test(q, unknown)).isFalse();
    assertThat(allocatable.test(q, fine)).isTrue();
    assertThat(messages(s, "team/unknown"))
        .containsExactly("volcano.sh/card.name: no node has card NVIDIA-X");
  }

  @Test
  void unknownAlternative_isReportedAndSkipped() {
    FakeTask partly = pod("partly", "NVIDIA-X|B", 1);

    assertThat(open(s, UNLIMITED).get(ExtensionPoint.ALLOCATABLE).test(q, partly)).isTrue();
    assertThat(messages(s, "team/partly"))
        .containsExactly("volcano.sh/card.name: no node has card NVIDIA-X, using B");
  }

  @Test
  void namedCardNotRequested_isRefused() {
    FakeTask none = job.task("none").annotation("volcano.sh/card.name", "A").requests("cpu", "1");

    assertThat(open(s, UNLIMITED).get(ExtensionPoint.ALLOCATABLE).test(q, none)).isFalse();
    assertThat(messages(s, "team/none"))
        .containsExactly("volcano.sh/card.name: the pod names A but requests no nvidia.com/gpu");
  }

  @Test
  void predicate_onlyNodesOfANamedModelWithQuotaLeft() {
    pod("run-a", "A", 1).status(TaskStatus.RUNNING).on(a1);
    FakeTask either = pod("either", "A|B", 1);
    FakeTask onlyA = pod("only-a", "A", 1);
    PredicateFn predicate = open(s, UNLIMITED).get(ExtensionPoint.PREDICATE);

    assertThat(predicate.check(either, b1)).isEqualTo(Status.OK);
    Status full = predicate.check(either, a1);
    assertThat(full.code()).isEqualTo(Status.Code.UNSCHEDULABLE);
    assertThat(full.message())
        .isEqualTo(
            "Queue <q> has insufficient <A> quota: requested <1>, total would be <2>, but"
                + " capability is <1>");
    Status wrongModel = predicate.check(onlyA, b1);
    assertThat(wrongModel.code()).isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
    assertThat(wrongModel.message()).isEqualTo("node(s) without card <A>");
    assertThat(predicate.check(onlyA, cpu).code())
        .isEqualTo(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);
  }

  @Test
  void predicate_passesPodsWithoutCards() {
    FakeTask plain = job.task("plain").requests("cpu", "1");

    assertThat(open(s, UNLIMITED).get(ExtensionPoint.PREDICATE).check(plain, a1))
        .isEqualTo(Status.OK);
  }

  @Test
  void unnamedCardRequest_isChargedToTheNodesModel() {
    pod("run-b", "B", 1).status(TaskStatus.RUNNING).on(b1);
    FakeTask unnamed = job.task("unnamed").requests("nvidia.com/gpu", "2");
    FakeTask unnamedOne = job.task("unnamed-one").requests("nvidia.com/gpu", "1");
    PredicateFn predicate = open(s, UNLIMITED).get(ExtensionPoint.PREDICATE);

    assertThat(predicate.check(unnamed, b1).code()).isEqualTo(Status.Code.UNSCHEDULABLE);
    assertThat(predicate.check(unnamedOne, b1)).isEqualTo(Status.OK);
    assertThat(predicate.check(unnamed, cpu)).isEqualTo(Status.OK);
  }

  @Test
  void eventHandler_chargesTheModelOfTheNodeAndReleasesIt() {
    FakeTask first = pod("first", "A|B", 1);
    FakeTask second = pod("second", "A|B", 1);
    RecordingExtensions ext = open(s, UNLIMITED);
    // The first handler is the accounting's (the tidal policy adds its own after it).
    EventHandler handler = ext.all(ExtensionPoint.EVENT_HANDLER).get(0);
    AllocatableFn allocatable = ext.get(ExtensionPoint.ALLOCATABLE);
    PredicateFn predicate = ext.get(ExtensionPoint.PREDICATE);

    first.status(TaskStatus.ALLOCATED).on(b1);
    handler.allocated(first);
    second.status(TaskStatus.ALLOCATED).on(b1);
    handler.allocated(second);

    // B is used up (2 of 2), A is still free.
    FakeTask third = pod("third", "A|B", 1);
    assertThat(predicate.check(third, b1).code()).isEqualTo(Status.Code.UNSCHEDULABLE);
    assertThat(predicate.check(third, a1)).isEqualTo(Status.OK);

    FakeTask onlyB = pod("only-b", "B", 1);
    assertThat(allocatable.test(q, onlyB)).isFalse();
    handler.deallocated(second);
    assertThat(allocatable.test(q, onlyB)).isTrue();
  }

  @Test
  void preemptive_needsOpenQueueAndRoomInEveryRequestedDimension() {
    pod("run-b", "B", 2).status(TaskStatus.RUNNING).on(b1);
    FakeTask b = pod("b", "B", 1);
    FakeTask either = pod("either", "A|B", 1);
    FakeTask eitherTwo = pod("either-two", "A|B", 2);
    var preemptive = open(s, UNLIMITED).get(ExtensionPoint.PREEMPTIVE);

    assertThat(preemptive.test(q, List.of(b))).isFalse();
    assertThat(preemptive.test(q, List.of(either))).isTrue();
    assertThat(preemptive.test(q, List.of(eitherTwo))).isFalse();
    q.state("Closed");
    assertThat(preemptive.test(q, List.of(either))).isFalse();
  }

  @Test
  void nodeOrder_prefersEarlierListedModels_weighted() {
    FakeTask either = pod("either", "B|A", 1);
    RecordingExtensions ext = open(s, Map.of("cardPreferenceWeight", 2));
    var order = ext.get(ExtensionPoint.NODE_ORDER);

    assertThat(order.score(either, b1)).isEqualTo(200.0);
    assertThat(order.score(either, a1)).isEqualTo(0.0);
    assertThat(order.score(either, cpu)).isEqualTo(0.0);
    assertThat(order.score(pod("single", "A", 1), a1)).isEqualTo(0.0);
  }

  @Test
  void nodeOrder_notRegisteredWithoutMultiModelPodsOrWithWeightZero() {
    pod("single", "A", 1);
    assertThat(open(s, UNLIMITED).has(ExtensionPoint.NODE_ORDER)).isFalse();
    pod("either", "A|B", 1);
    assertThat(open(s, Map.of("cardPreferenceWeight", 0)).has(ExtensionPoint.NODE_ORDER)).isFalse();
    assertThat(open(s, UNLIMITED).has(ExtensionPoint.NODE_ORDER)).isTrue();
  }

  @Test
  void malformedQueueQuota_reportedOnTheQueueOncePerChange() {
    s.addQueue("bad").annotation("volcano.sh/card.quota", "{\"A\": oops}");
    QueueReports reports = new QueueReports();
    CardArguments args = CardArguments.defaults();

    RecordingExtensions.open(
        new CapacityCardPlugin(args, reports, new ReclaimPolicies(PolicyLibrary.create())), s);
    RecordingExtensions.open(
        new CapacityCardPlugin(args, reports, new ReclaimPolicies(PolicyLibrary.create())), s);

    assertThat(s.events())
        .containsExactly(
            new RecordedEvent(
                "Queue",
                "bad",
                "Warning",
                "InvalidCardAnnotation",
                "volcano.sh/card.quota: unexpected 'o' at offset 6, expected a value for \"A\""));
  }
}
