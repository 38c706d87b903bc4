package dev.caldera.plugins.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.extension.PreemptiveFn;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.RecordingExtensions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReclaimTest {

  private final FakeSession session = new FakeSession();
  private final FakeNode node =
      session
          .addNode("n1")
          .allocatable("pods", "110", "cpu", "16", "memory", "16Gi", "nvidia.com/gpu", "8");

  private RecordingExtensions open(int ancestorLevel, boolean hierarchy) {
    CapacityPlugin plugin =
        new CapacityPlugin(new CapacityArguments(ancestorLevel, true, false, hierarchy));
    return RecordingExtensions.open(plugin, session);
  }

  private List<TaskInfo> running(String queue, int n, String... requests) {
    FakeJob job = session.addJob("ns/" + queue + "-run").queue(queue).phase(PodGroupPhase.Running);
    List<TaskInfo> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(job.task("r" + i).requests(requests).status(TaskStatus.RUNNING).on(node));
    }
    return out;
  }

  private FakeTask reclaimer(String queue, String... requests) {
    return session
        .addJob("ns/" + queue + "-new")
        .queue(queue)
        .phase(PodGroupPhase.Inqueue)
        .task("p")
        .requests(requests);
  }

  private static List<String> names(Victims v) {
    return v.tasks().stream().map(TaskInfo::name).toList();
  }

  // ------------------------------------------------------------ Reclaimable

  @Test
  void reclaimable_takesOnlyWhileTheQueueIsAboveDeservedLoweringItsAllocationPerVictim() {
    session.addQueue("greedy").deserved("cpu", "2", "memory", "8Gi");
    session.addQueue("starved").deserved("cpu", "8", "memory", "8Gi");
    List<TaskInfo> candidates = running("greedy", 4, "cpu", "1");
    FakeTask task = reclaimer("starved", "cpu", "1");

    Victims v = open(0, false).get(ExtensionPoint.RECLAIMABLE).select(task, candidates);

    // 4 > 2 → r0 (3 left), 3 > 2 → r1 (2 left), then 2 is not above 2
    assertThat(v.vote()).isEqualTo(Vote.PERMIT);
    assertThat(names(v)).containsExactly("r0", "r1");
  }

  @Test
  void reclaimable_neverTakesAQueueBelowItsGuarantee() {
    session.addQueue("greedy").deserved("cpu", "1").guarantee("memory", "3Gi");
    session.addQueue("starved").deserved("cpu", "8");
    List<TaskInfo> candidates = running("greedy", 4, "cpu", "1", "memory", "1Gi");
    FakeTask task = reclaimer("starved", "cpu", "1");

    Victims v = open(0, false).get(ExtensionPoint.RECLAIMABLE).select(task, candidates);

    // cpu stays above deserved (1) all along, but after r0 the memory left (3Gi) is the guarantee
    assertThat(names(v)).containsExactly("r0");
  }

  @Test
  void reclaimable_candidateWhoseQueueDeservesNoneOfItsResourcesIsAVictimAtOnce() {
    session.addQueue("memonly").deserved("memory", "8Gi");
    session.addQueue("starved").deserved("cpu", "8");
    List<TaskInfo> candidates = running("memonly", 2, "cpu", "1");
    FakeTask task = reclaimer("starved", "cpu", "1");

    Victims v = open(0, false).get(ExtensionPoint.RECLAIMABLE).select(task, candidates);

    assertThat(names(v)).containsExactly("r0", "r1");
  }

  @Test
  void reclaimable_skipsCandidatesWithNoDimensionInCommonWithTheReclaimer() {
    session.addQueue("cpuq").deserved("cpu", "1");
    session.addQueue("gpuq").deserved("nvidia.com/gpu", "4");
    List<TaskInfo> candidates = running("cpuq", 3, "cpu", "1");
    FakeTask gpuTask = reclaimer("gpuq", "nvidia.com/gpu", "1");

    Victims v = open(0, false).get(ExtensionPoint.RECLAIMABLE).select(gpuTask, candidates);

    assertThat(v.vote()).isEqualTo(Vote.PERMIT);
    assertThat(v.tasks()).isEmpty(); // the shared pods dimension does not count
  }

  @Test
  void reclaimable_ancestorLevelProtectsAVictimWhoseParentIsWithinDeserved() {
    session.addQueue("root");
    session.addQueue("p1").deserved("cpu", "4");
    session.addQueue("over").parent("p1").deserved("cpu", "1");
    session.addQueue("under").parent("p1").deserved("cpu", "3");
    session.addQueue("p2").deserved("cpu", "12");
    session.addQueue("needy").parent("p2").deserved("cpu", "12");
    List<TaskInfo> candidates = running("over", 3, "cpu", "1"); // over 3 > 1, p1 3 ≤ 4
    FakeTask task = reclaimer("needy", "cpu", "1");

    Victims level0 = open(0, true).get(ExtensionPoint.RECLAIMABLE).select(task, candidates);
    Victims level1 = open(1, true).get(ExtensionPoint.RECLAIMABLE).select(task, candidates);

    assertThat(names(level0)).containsExactly("r0", "r1");
    assertThat(level1.tasks()).isEmpty();
  }

  @Test
  void reclaimable_ancestorLevelIgnoresTheAncestorSharedWithTheReclaimer() {
    session.addQueue("root");
    session.addQueue("p1").deserved("cpu", "4");
    session.addQueue("over").parent("p1").deserved("cpu", "1");
    session.addQueue("needy").parent("p1").deserved("cpu", "3");
    List<TaskInfo> candidates = running("over", 3, "cpu", "1");
    FakeTask task = reclaimer("needy", "cpu", "1");

    Victims v = open(1, true).get(ExtensionPoint.RECLAIMABLE).select(task, candidates);

    assertThat(names(v)).containsExactly("r0", "r1");
  }

  @Test
  void reclaimable_rejectsForAReclaimerInAQueueThatTakesNoJobs() {
    session.addQueue("root");
    session.addQueue("parent").deserved("cpu", "4");
    session.addQueue("child").parent("parent");
    session.addQueue("other").deserved("cpu", "1");
    List<TaskInfo> candidates = running("other", 2, "cpu", "1");
    FakeTask task = reclaimer("parent", "cpu", "1");

    Victims v = open(0, true).get(ExtensionPoint.RECLAIMABLE).select(task, candidates);

    assertThat(v.vote()).isEqualTo(Vote.REJECT);
    assertThat(v.tasks()).isEmpty();
  }

  // ------------------------------------------------------------ Preemptive

  @Test
  void preemptive_whenAllocatedPlusRequestStaysWithinDeservedOnOneRequestedDimension() {
    session
        .addQueue("q")
        .deserved("cpu", "2", "memory", "2Gi")
        .capability("cpu", "4", "memory", "4Gi");
    running("q", 1, "cpu", "1", "memory", "3Gi");
    FakeTask cpuWithin = reclaimer("q", "cpu", "1", "memory", "1Gi");
    PreemptiveFn preemptive = open(0, false).get(ExtensionPoint.PREEMPTIVE);

    // cpu 2 ≤ 2 although memory 4Gi > 2Gi
    assertThat(preemptive.test(session.queue("q"), List.of(cpuWithin))).isTrue();
  }

  @Test
  void preemptive_notWhenEveryRequestedDimensionExceedsDeserved() {
    session.addQueue("q").deserved("cpu", "1", "memory", "1Gi");
    running("q", 1, "cpu", "1", "memory", "1Gi");
    FakeTask task = reclaimer("q", "cpu", "1", "memory", "1Gi");
    PreemptiveFn preemptive = open(0, false).get(ExtensionPoint.PREEMPTIVE);

    assertThat(preemptive.test(session.queue("q"), List.of(task))).isFalse();
  }

  @Test
  void preemptive_notBeyondRealCapabilityNorForAClosedQueue() {
    session.addQueue("capped").deserved("cpu", "8").capability("cpu", "2");
    session.addQueue("closed").deserved("cpu", "8").state("Closed");
    running("capped", 2, "cpu", "1");
    FakeTask over = reclaimer("capped", "cpu", "1");
    FakeTask closed = reclaimer("closed", "cpu", "1");
    PreemptiveFn preemptive = open(0, false).get(ExtensionPoint.PREEMPTIVE);

    assertThat(preemptive.test(session.queue("capped"), List.of(over))).isFalse();
    assertThat(preemptive.test(session.queue("closed"), List.of(closed))).isFalse();
  }

  @Test
  void preemptive_anAncestorWithinItsDeservedGrantsItWithTheAncestorLevel() {
    session.addQueue("root");
    session.addQueue("team").deserved("cpu", "10");
    session.addQueue("leaf").parent("team").deserved("cpu", "1");
    FakeTask task = reclaimer("leaf", "cpu", "2");

    PreemptiveFn level0 = open(0, true).get(ExtensionPoint.PREEMPTIVE);
    PreemptiveFn level1 = open(1, true).get(ExtensionPoint.PREEMPTIVE);

    assertThat(level0.test(session.queue("leaf"), List.of(task))).isFalse();
    assertThat(level1.test(session.queue("leaf"), List.of(task))).isTrue();
  }
}
