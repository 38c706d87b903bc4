package dev.caldera.plugins.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.extension.AllocatableFn;
import dev.caldera.api.extension.CycleState;
import dev.caldera.api.extension.JobEnqueueableFn;
import dev.caldera.api.extension.JobEnqueuedFn;
import dev.caldera.api.extension.SimulateAllocatableFn;
import dev.caldera.api.extension.Status;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.testkit.FakeCycleState;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.RecordedEvent;
import dev.caldera.testkit.RecordingExtensions;
import org.junit.jupiter.api.Test;

/** JobEnqueueable, JobEnqueued and the simulate family. */
class AdmissionTest {

  private final FakeSession session = new FakeSession();
  private final FakeNode node =
      session.addNode("n1").allocatable("pods", "110", "cpu", "100", "memory", "100Gi");
  private CapacityPlugin plugin;

  private RecordingExtensions open(boolean hierarchy) {
    plugin = new CapacityPlugin(new CapacityArguments(0, true, false, hierarchy));
    return RecordingExtensions.open(plugin, session);
  }

  private void tree() {
    session.addQueue("root");
    session.addQueue("team").capability("cpu", "10");
    session.addQueue("a").parent("team").capability("cpu", "8");
    session.addQueue("b").parent("team");
  }

  /** A running job whose minimum is all it holds, so none of it is elastic. */
  private FakeTask running(String queue, String cpu) {
    return session
        .addJob("ns/" + queue + "-run")
        .queue(queue)
        .phase(PodGroupPhase.Running)
        .minResources("cpu", cpu)
        .task("r")
        .requests("cpu", cpu)
        .status(TaskStatus.RUNNING)
        .on(node);
  }

  private FakeJob pendingJob(String queue, String name, String minCpu) {
    FakeJob job = session.addJob("ns/" + name).queue(queue).minResources("cpu", minCpu);
    job.task("p").requests("cpu", minCpu);
    return job;
  }

  // ------------------------------------------------------------ JobEnqueueable / JobEnqueued

  @Test
  void enqueueable_minimumPlusAllocatedPlusInqueueMinusElasticWithinRealCapability() {
    session.addQueue("q").capability("cpu", "10");
    running("q", "6");
    FakeJob fits = pendingJob("q", "fits", "4");
    FakeJob tooBig = pendingJob("q", "big", "5");
    JobEnqueueableFn enqueueable = open(false).get(ExtensionPoint.JOB_ENQUEUEABLE);

    assertThat(enqueueable.vote(fits)).isEqualTo(Vote.PERMIT);
    assertThat(enqueueable.vote(tooBig)).isEqualTo(Vote.REJECT);
    assertThat(session.events())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.kind()).isEqualTo("PodGroup");
              assertThat(e.key()).isEqualTo("ns/big");
              assertThat(e.type()).isEqualTo("Normal");
              assertThat(e.reason()).isEqualTo("Unschedulable");
              assertThat(e.message())
                  .isEqualTo(
                      "queue resource quota insufficient: insufficient cpu; queue q:"
                          + " cpu requested 5, total would be 11, limit 10");
            });
  }

  @Test
  void enqueueable_elasticAllocationDoesNotCount() {
    session.addQueue("q").capability("cpu", "10");
    FakeJob elastic =
        session
            .addJob("ns/elastic")
            .queue("q")
            .phase(PodGroupPhase.Running)
            .minResources("cpu", "2");
    for (int i = 0; i < 6; i++) {
      elastic.task("e" + i).requests("cpu", "1").status(TaskStatus.RUNNING).on(node);
    }
    FakeJob job = pendingJob("q", "next", "7");
    JobEnqueueableFn enqueueable = open(false).get(ExtensionPoint.JOB_ENQUEUEABLE);

    // 7 + 6 allocated − 4 elastic = 9 ≤ 10
    assertThat(enqueueable.vote(job)).isEqualTo(Vote.PERMIT);
  }

  @Test
  void enqueued_countsTheMinimumAsInqueueAtEveryLevel() {
    tree();
    FakeJob first = pendingJob("a", "first", "6");
    FakeJob second = pendingJob("b", "second", "5");
    RecordingExtensions ext = open(true);
    JobEnqueueableFn enqueueable = ext.get(ExtensionPoint.JOB_ENQUEUEABLE);
    JobEnqueuedFn enqueued = ext.get(ExtensionPoint.JOB_ENQUEUED);

    assertThat(enqueueable.vote(first)).isEqualTo(Vote.PERMIT);
    enqueued.enqueued(first);
    assertThat(plugin.attr("a").inqueue.milliCpu()).isEqualTo(6000);
    assertThat(plugin.attr("team").inqueue.milliCpu()).isEqualTo(6000);
    assertThat(plugin.attr("root").inqueue.milliCpu()).isEqualTo(6000);

    // b alone could take 5, but team would hold 11 > 10
    assertThat(enqueueable.vote(second)).isEqualTo(Vote.REJECT);
    assertThat(session.events())
        .extracting(RecordedEvent::message)
        .containsExactly(
            "queue resource quota insufficient: insufficient cpu; queue b (limit of ancestor team):"
                + " cpu requested 5, total would be 11, limit 10");
  }

  @Test
  void enqueueable_rejectsClosedQueueAndPermitsWithoutMinimum() {
    session.addQueue("closed").state("Closed");
    session.addQueue("open").capability("cpu", "1");
    FakeJob inClosed = pendingJob("closed", "c", "1");
    FakeJob noMinimum = session.addJob("ns/nomin").queue("open");
    noMinimum.task("p").requests("cpu", "50");
    JobEnqueueableFn enqueueable = open(false).get(ExtensionPoint.JOB_ENQUEUEABLE);

    assertThat(enqueueable.vote(inClosed)).isEqualTo(Vote.REJECT);
    assertThat(enqueueable.vote(noMinimum)).isEqualTo(Vote.PERMIT);
  }

  // ------------------------------------------------------------ simulate family

  @Test
  void simulate_worksOnTheTasksCopyAndNeverOnTheRealState() {
    tree();
    FakeTask victim = running("a", "6");
    FakeTask preemptor = session.addJob("ns/preemptor").queue("a").task("p").requests("cpu", "4");
    RecordingExtensions ext = open(true);
    SimulateAllocatableFn simulateAllocatable = ext.get(ExtensionPoint.SIMULATE_ALLOCATABLE);
    AllocatableFn allocatable = ext.get(ExtensionPoint.ALLOCATABLE);

    assertThat(ext.get(ExtensionPoint.PRE_PREDICATE).check(preemptor)).isEqualTo(Status.OK);
    CycleState state = session.cycleState(preemptor).copy();
    assertThat(simulateAllocatable.test(state, session.queue("a"), preemptor)).isFalse(); // 10 > 8

    Status removed =
        ext.get(ExtensionPoint.SIMULATE_REMOVE_TASK).remove(state, preemptor, victim, node);

    assertThat(removed).isEqualTo(Status.OK);
    assertThat(simulateAllocatable.test(state, session.queue("a"), preemptor)).isTrue(); // 4 ≤ 8
    assertThat(allocatable.test(session.queue("a"), preemptor)).isFalse();
    assertThat(plugin.attr("a").allocated.milliCpu()).isEqualTo(6000);
    assertThat(plugin.attr("team").allocated.milliCpu()).isEqualTo(6000);
    // the original cycle state is untouched too
    assertThat(
            simulateAllocatable.test(session.cycleState(preemptor), session.queue("a"), preemptor))
        .isFalse();

    ext.get(ExtensionPoint.SIMULATE_ADD_TASK).add(state, preemptor, victim, node);
    assertThat(simulateAllocatable.test(state, session.queue("a"), preemptor)).isFalse();
  }

  @Test
  void simulate_checksAncestorsOnTheCopy() {
    tree();
    FakeTask inB = running("b", "6");
    FakeTask preemptor = session.addJob("ns/preemptor").queue("a").task("p").requests("cpu", "5");
    RecordingExtensions ext = open(true);
    ext.get(ExtensionPoint.PRE_PREDICATE).check(preemptor);
    CycleState state = session.cycleState(preemptor);
    SimulateAllocatableFn simulateAllocatable = ext.get(ExtensionPoint.SIMULATE_ALLOCATABLE);

    assertThat(simulateAllocatable.test(state, session.queue("a"), preemptor)).isFalse(); // team 11
    ext.get(ExtensionPoint.SIMULATE_REMOVE_TASK).remove(state, preemptor, inB, node);
    assertThat(simulateAllocatable.test(state, session.queue("a"), preemptor)).isTrue();
  }

  @Test
  void simulate_withoutPrePredicateStateFails() {
    session.addQueue("q");
    FakeTask task = running("q", "1");
    RecordingExtensions ext = open(false);

    assertThat(
            ext.get(ExtensionPoint.SIMULATE_ALLOCATABLE)
                .test(new FakeCycleState(), session.queue("q"), task))
        .isFalse();
    assertThat(
            ext.get(ExtensionPoint.SIMULATE_ADD_TASK)
                .add(new FakeCycleState(), task, task, node)
                .isSuccess())
        .isFalse();
  }
}
