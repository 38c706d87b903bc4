package dev.caldera.plugins.proportion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.extension.AllocatableFn;
import dev.caldera.api.extension.CycleState;
import dev.caldera.api.extension.JobEnqueueableFn;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.resource.ResourceNames;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeQueue;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.RecordedEvent;
import dev.caldera.testkit.RecordingExtensions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProportionPluginTest {

  private final FakeSession session = new FakeSession();
  private final ProportionPlugin plugin = new ProportionPlugin();

  private FakeNode node(String cpu, String memory) {
    return session.addNode("n1").allocatable("cpu", cpu, "memory", memory, "pods", "110");
  }

  private RecordingExtensions open() {
    return RecordingExtensions.open(plugin, session);
  }

  private static List<FakeTask> tasks(FakeJob job, int n, TaskStatus status, FakeNode node) {
    List<FakeTask> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      FakeTask t = job.task(status.name().toLowerCase() + i).requests("cpu", "1").status(status);
      out.add(status == TaskStatus.PENDING ? t : t.on(node));
    }
    return out;
  }

  private double deservedCpu(String queue) {
    return plugin.attr(queue).deserved.milliCpu();
  }

  @Test
  void registersExactlyVolcanosExtensionPoints() {
    assertThat(open().points())
        .containsExactlyInAnyOrder(
            ExtensionPoint.QUEUE_ORDER,
            ExtensionPoint.RECLAIMABLE,
            ExtensionPoint.OVERUSED,
            ExtensionPoint.ALLOCATABLE,
            ExtensionPoint.SIMULATE_ALLOCATABLE,
            ExtensionPoint.PREEMPTIVE,
            ExtensionPoint.PRE_PREDICATE,
            ExtensionPoint.JOB_ENQUEUEABLE,
            ExtensionPoint.JOB_ENQUEUED,
            ExtensionPoint.SIMULATE_ADD_TASK,
            ExtensionPoint.SIMULATE_REMOVE_TASK,
            ExtensionPoint.EVENT_HANDLER);
  }

  @Test
  void factory_ignoresUnknownArguments() {
    var created =
        new ProportionPluginFactory()
            .create(new PluginArguments("proportion", Map.of("extra", true), false));

    assertThat(created).isInstanceOf(ProportionPlugin.class);
    assertThat(new ProportionPluginFactory().name()).isEqualTo("proportion");
  }

  // ------------------------------------------------------------ deserved

  @Test
  void deserved_waterFillsByWeightAndRedistributesWhatACappedQueueCannotTake() {
    FakeNode n = node("12", "12Gi");
    session.addQueue("q1").weight(1);
    session.addQueue("q2").weight(1);
    session.addQueue("q3").weight(2).capability("cpu", "2");
    for (String q : List.of("q1", "q2", "q3")) {
      tasks(session.addJob("ns/" + q).queue(q), 8, TaskStatus.PENDING, n);
    }
    open();

    // Round 1 gives 3/3/6 (q3 capped to 2); round 2 gives the 4 left as 1/1/(2→capped); round 3
    // splits the last 2 between q1 and q2.
    assertThat(deservedCpu("q1")).isEqualTo(5000);
    assertThat(deservedCpu("q2")).isEqualTo(5000);
    assertThat(deservedCpu("q3")).isEqualTo(2000);
    assertThat(plugin.attr("q1").deserved.get(ResourceNames.PODS_INDEX)).isEqualTo(8);
  }

  @Test
  void deserved_neverExceedsRequestAndNeverFallsBelowGuarantee() {
    FakeNode n = node("10", "10Gi");
    session.addQueue("small");
    session.addQueue("guaranteed").guarantee("cpu", "4");
    session.addQueue("big");
    session.addQueue("idle");
    tasks(session.addJob("ns/small").queue("small"), 1, TaskStatus.PENDING, n);
    tasks(session.addJob("ns/g").queue("guaranteed"), 1, TaskStatus.PENDING, n);
    tasks(session.addJob("ns/big").queue("big"), 20, TaskStatus.PENDING, n);
    open();

    assertThat(deservedCpu("small")).isEqualTo(1000);
    assertThat(deservedCpu("guaranteed")).isEqualTo(4000);
    // The guarantee lifts "guaranteed" from 1 to 4 in round 1 and that comes out of the pool, so
    // "big" ends at 10 − 1 − 4 = 5 (not its realCapability of 6).
    assertThat(deservedCpu("big")).isCloseTo(5000, within(1e-6));
    assertThat(plugin.attr("idle")).isNull();
  }

  @Test
  void realCapability_isTheUnguaranteedTotalPlusOwnGuaranteeWithinCapability() {
    FakeNode n = node("10", "10Gi");
    session.addQueue("other").guarantee("cpu", "3");
    session.addQueue("q").guarantee("cpu", "1").capability("cpu", "20", "memory", "4Gi");
    tasks(session.addJob("ns/j").queue("q"), 1, TaskStatus.PENDING, n);
    open();

    assertThat(plugin.attr("q").realCapability.milliCpu()).isEqualTo(7000);
    assertThat(plugin.attr("q").realCapability.memory()).isEqualTo(4.0 * 1024 * 1024 * 1024);
  }

  // ------------------------------------------------------------ allocation

  @Test
  void allocatable_checksOnlyRequestedDimensionsAgainstDeserved() {
    FakeNode n = node("4", "8Gi");
    FakeQueue q = session.addQueue("q");
    FakeJob job = session.addJob("ns/j").queue("q");
    tasks(job, 1, TaskStatus.RUNNING, n);
    List<FakeTask> pending = tasks(job, 2, TaskStatus.PENDING, n);
    RecordingExtensions ext = open();
    FakeTask extra = job.task("extra").requests("cpu", "1");
    FakeTask bestEffort = job.task("be");
    AllocatableFn allocatable = ext.get(ExtensionPoint.ALLOCATABLE);
    var handler = ext.get(ExtensionPoint.EVENT_HANDLER);
    assertThat(deservedCpu("q")).isEqualTo(3000); // request: 1 running + 2 pending (at open)

    assertThat(allocatable.test(q, pending.get(0))).isTrue();
    handler.allocated(pending.get(0).status(TaskStatus.ALLOCATED));
    assertThat(allocatable.test(q, pending.get(1))).isTrue();
    handler.allocated(pending.get(1).status(TaskStatus.ALLOCATED));

    assertThat(allocatable.test(q, extra)).isFalse();
    assertThat(allocatable.test(q, bestEffort)).isTrue(); // pods are not compared
  }

  @Test
  void allocatable_refusesAClosedQueue() {
    FakeNode n = node("4", "8Gi");
    FakeQueue q = session.addQueue("q").state("Closed");
    List<FakeTask> pending = tasks(session.addJob("ns/j").queue("q"), 2, TaskStatus.PENDING, n);

    assertThat(open().get(ExtensionPoint.ALLOCATABLE).test(q, pending.get(0))).isFalse();
  }

  @Test
  void preemptive_checksTheTasksTogether() {
    FakeNode n = node("4", "8Gi");
    FakeQueue q = session.addQueue("q");
    List<FakeTask> pending = tasks(session.addJob("ns/j").queue("q"), 2, TaskStatus.PENDING, n);
    FakeTask third = new FakeTask("ns/x").jobId("ns/j").requests("cpu", "1");
    var preemptive = open().get(ExtensionPoint.PREEMPTIVE);

    assertThat(preemptive.test(q, List.copyOf(pending))).isTrue();
    assertThat(preemptive.test(q, List.of(pending.get(0), pending.get(1), third))).isFalse();
  }

  @Test
  void overused_whenAllocatedReachesDeservedInEveryDimensionIncludingPods() {
    FakeNode n = node("8", "8Gi");
    FakeQueue full = session.addQueue("full");
    FakeQueue waiting = session.addQueue("waiting");
    tasks(session.addJob("ns/full").queue("full"), 2, TaskStatus.RUNNING, n);
    FakeJob w = session.addJob("ns/w").queue("waiting");
    tasks(w, 2, TaskStatus.RUNNING, n);
    tasks(w, 1, TaskStatus.PENDING, n);
    var overused = open().get(ExtensionPoint.OVERUSED);

    assertThat(overused.test(full)).isTrue();
    assertThat(overused.test(waiting)).isFalse();
  }

  @Test
  void eventHandler_tracksAllocatedAndShare() {
    FakeNode n = node("4", "8Gi");
    session.addQueue("q");
    FakeJob job = session.addJob("ns/j").queue("q");
    tasks(job, 1, TaskStatus.RUNNING, n);
    FakeTask p = tasks(job, 1, TaskStatus.PENDING, n).get(0);
    var handler = open().get(ExtensionPoint.EVENT_HANDLER);
    assertThat(plugin.attr("q").share).isEqualTo(0.5);

    handler.allocated(p.status(TaskStatus.ALLOCATED));
    assertThat(plugin.attr("q").allocated.milliCpu()).isEqualTo(2000);
    assertThat(plugin.attr("q").share).isEqualTo(1.0);

    handler.deallocated(p);
    assertThat(plugin.attr("q").share).isEqualTo(0.5);
  }

  // ------------------------------------------------------------ ordering and reclaim

  @Test
  void queueOrder_higherPriorityThenLowerShare() {
    FakeNode n = node("8", "8Gi");
    FakeQueue busy = session.addQueue("busy");
    FakeQueue quiet = session.addQueue("quiet");
    FakeQueue urgent = session.addQueue("urgent").priority(5);
    FakeJob b = session.addJob("ns/b").queue("busy");
    tasks(b, 2, TaskStatus.RUNNING, n);
    tasks(b, 2, TaskStatus.PENDING, n);
    FakeJob q = session.addJob("ns/q").queue("quiet");
    tasks(q, 1, TaskStatus.RUNNING, n);
    tasks(q, 3, TaskStatus.PENDING, n);
    FakeJob u = session.addJob("ns/u").queue("urgent");
    tasks(u, 2, TaskStatus.RUNNING, n);
    var order = open().get(ExtensionPoint.QUEUE_ORDER);

    assertThat(order.compare(quiet, busy)).isNegative();
    assertThat(order.compare(busy, quiet)).isPositive();
    assertThat(order.compare(urgent, quiet)).isNegative();
    assertThat(order.compare(busy, busy)).isZero();
  }

  @Test
  void reclaimable_takesFromQueuesAboveDeservedUntilTheyAreBackWithin() {
    FakeNode n = node("4", "8Gi");
    session.addQueue("rich");
    session.addQueue("poor");
    List<FakeTask> rich = tasks(session.addJob("ns/rich").queue("rich"), 4, TaskStatus.RUNNING, n);
    FakeTask reclaimer =
        tasks(session.addJob("ns/poor").queue("poor"), 4, TaskStatus.PENDING, n).get(0);
    FakeTask orphan = new FakeTask("ns/o").jobId("ns/gone").status(TaskStatus.RUNNING);
    RecordingExtensions ext = open();
    assertThat(deservedCpu("rich")).isEqualTo(2000);

    Victims victims =
        ext.get(ExtensionPoint.RECLAIMABLE)
            .select(reclaimer, List.of(rich.get(3), orphan, rich.get(0), rich.get(1)));

    assertThat(victims.vote()).isEqualTo(Vote.PERMIT);
    assertThat(victims.tasks()).containsExactly(rich.get(3), rich.get(0));
  }

  // ------------------------------------------------------------ enqueue

  @Test
  void enqueueable_rejectsBeyondRealCapabilityWithAnEventNamingEachResource() {
    node("10", "10Gi");
    session.addQueue("q").capability("cpu", "4", "memory", "4Gi");
    FakeJob first = session.addJob("ns/first").queue("q").minResources("cpu", "3", "memory", "1Gi");
    first.task("t").requests("cpu", "3", "memory", "1Gi");
    FakeJob second =
        session.addJob("ns/second").queue("q").minResources("cpu", "2", "memory", "1Gi");
    second.task("t").requests("cpu", "2", "memory", "1Gi");
    FakeJob huge = session.addJob("ns/huge").queue("q").minResources("cpu", "5", "memory", "5Gi");
    huge.task("t").requests("cpu", "5", "memory", "5Gi");
    RecordingExtensions ext = open();
    JobEnqueueableFn enqueueable = ext.get(ExtensionPoint.JOB_ENQUEUEABLE);

    assertThat(enqueueable.vote(first)).isEqualTo(Vote.PERMIT);
    assertThat(enqueueable.vote(second)).isEqualTo(Vote.PERMIT); // nothing admitted yet
    ext.get(ExtensionPoint.JOB_ENQUEUED).enqueued(first);
    assertThat(enqueueable.vote(second)).isEqualTo(Vote.REJECT);
    assertThat(enqueueable.vote(huge)).isEqualTo(Vote.REJECT);

    assertThat(session.events())
        .containsExactly(
            new RecordedEvent(
                "PodGroup",
                "ns/second",
                "Normal",
                "Unschedulable",
                "queue resource quota insufficient: insufficient cpu"),
            new RecordedEvent(
                "PodGroup",
                "ns/huge",
                "Normal",
                "Unschedulable",
                "queue resource quota insufficient: insufficient cpu, insufficient memory"));
  }

  @Test
  void enqueueable_countsInqueueJobsAndDeductsElasticUse() {
    FakeNode n = node("10", "10Gi");
    session.addQueue("q").capability("cpu", "5");
    FakeJob admitted =
        session
            .addJob("ns/admitted")
            .queue("q")
            .phase(PodGroupPhase.Inqueue)
            .minResources("cpu", "2");
    admitted.task("t").requests("cpu", "2");
    FakeJob elastic =
        session
            .addJob("ns/elastic")
            .queue("q")
            .phase(PodGroupPhase.Running)
            .minResources("cpu", "1");
    tasks(elastic, 2, TaskStatus.RUNNING, n);
    FakeJob candidate = session.addJob("ns/c").queue("q").minResources("cpu", "2");
    candidate.task("t").requests("cpu", "2");
    FakeJob tooBig = session.addJob("ns/big").queue("q").minResources("cpu", "3");
    tooBig.task("t").requests("cpu", "3");
    JobEnqueueableFn enqueueable = open().get(ExtensionPoint.JOB_ENQUEUEABLE);

    assertThat(plugin.attr("q").inqueue.milliCpu()).isEqualTo(2000);
    assertThat(plugin.attr("q").elastic.milliCpu()).isEqualTo(1000);
    // 2 (min) + 2 (allocated) + 2 (inqueue) − 1 (elastic) = 5 fits the capability of 5 ...
    assertThat(enqueueable.vote(candidate)).isEqualTo(Vote.PERMIT);
    // ... and 3 + 2 + 2 − 1 = 6 does not.
    assertThat(enqueueable.vote(tooBig)).isEqualTo(Vote.REJECT);
  }

  @Test
  void enqueueable_rejectsAClosedQueueAndPermitsJobsWithoutMinResources() {
    node("10", "10Gi");
    session.addQueue("closed").state("Closed");
    session.addQueue("open").capability("cpu", "1");
    FakeJob inClosed = session.addJob("ns/a").queue("closed");
    inClosed.task("t").requests("cpu", "1");
    FakeJob noMin = session.addJob("ns/b").queue("open");
    noMin.task("t").requests("cpu", "5");
    JobEnqueueableFn enqueueable = open().get(ExtensionPoint.JOB_ENQUEUEABLE);

    assertThat(enqueueable.vote(inClosed)).isEqualTo(Vote.REJECT);
    assertThat(enqueueable.vote(noMin)).isEqualTo(Vote.PERMIT);
    assertThat(session.events()).isEmpty();
  }

  @Test
  void enqueueAndAllocatable_memoryOnlyJobPassesAlthoughTheQueueIsFullOnCpu() {
    // Volcano's proportion_test.go, TestEnqueueAndAllocable "case1".
    FakeNode n1 = session.addNode("n1").allocatable("cpu", "2", "memory", "2G", "pods", "10");
    FakeNode n2 = session.addNode("n2").allocatable("cpu", "2", "memory", "2G", "pods", "10");
    session.addQueue("q1").capability("cpu", "2", "memory", "2G");
    FakeQueue q2 = session.addQueue("q2").capability("cpu", "3", "memory", "3G");
    FakeJob pg1 =
        session
            .addJob("ns1/pg1")
            .queue("q1")
            .phase(PodGroupPhase.Running)
            .minResources("cpu", "1", "memory", "2G");
    pg1.task("pod1").requests("cpu", "1", "memory", "2G").status(TaskStatus.RUNNING).on(n1);
    FakeJob pg2 =
        session
            .addJob("ns1/pg2")
            .queue("q2")
            .phase(PodGroupPhase.Running)
            .minResources("cpu", "2", "memory", "1G");
    pg2.task("pod2").requests("cpu", "2", "memory", "1G").status(TaskStatus.RUNNING).on(n2);
    FakeJob pg4 = session.addJob("ns1/pg4").queue("q2").minResources("cpu", "0", "memory", "1G");
    FakeTask pod4 = pg4.task("pod4").requests("cpu", "0", "memory", "1G");
    RecordingExtensions ext = open();

    assertThat(ext.get(ExtensionPoint.JOB_ENQUEUEABLE).vote(pg4)).isEqualTo(Vote.PERMIT);
    assertThat(ext.get(ExtensionPoint.ALLOCATABLE).test(q2, pod4)).isTrue();
    assertThat(deservedCpu("q2")).isEqualTo(2000);
  }

  // ------------------------------------------------------------ simulation

  @Test
  void simulation_worksOnTheCopyStoredByPrePredicate() {
    FakeNode n = node("4", "8Gi");
    FakeQueue q = session.addQueue("q");
    FakeJob job = session.addJob("ns/j").queue("q");
    List<FakeTask> running = tasks(job, 2, TaskStatus.RUNNING, n);
    FakeTask preemptor = tasks(job, 1, TaskStatus.PENDING, n).get(0);
    RecordingExtensions ext = open();
    // deserved 3 cpu, allocated 2: the preemptor fits; with one more task added it does not.
    assertThat(ext.get(ExtensionPoint.PRE_PREDICATE).check(preemptor).isSuccess()).isTrue();
    CycleState state = session.cycleState(preemptor);
    var simulateAllocatable = ext.get(ExtensionPoint.SIMULATE_ALLOCATABLE);
    assertThat(simulateAllocatable.test(state, q, preemptor)).isTrue();

    FakeTask other = new FakeTask("ns/o").jobId("ns/j").requests("cpu", "1");
    ext.get(ExtensionPoint.SIMULATE_ADD_TASK).add(state, preemptor, other, n);
    assertThat(simulateAllocatable.test(state, q, preemptor)).isFalse();
    assertThat(plugin.attr("q").allocated.milliCpu()).isEqualTo(2000);

    ext.get(ExtensionPoint.SIMULATE_REMOVE_TASK).remove(state, preemptor, running.get(0), n);
    ext.get(ExtensionPoint.SIMULATE_REMOVE_TASK).remove(state, preemptor, other, n);
    assertThat(simulateAllocatable.test(state, q, preemptor)).isTrue();
    assertThat(state.copy().read("proportion")).isNotSameAs(state.read("proportion"));
  }
}
