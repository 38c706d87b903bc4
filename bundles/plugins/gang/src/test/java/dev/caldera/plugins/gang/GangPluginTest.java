package dev.caldera.plugins.gang;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.extension.ValidationResult;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.PodCondition;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.RecordingExtensions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GangPluginTest {

  private final FakeSession session = new FakeSession();
  private final FakeNode node =
      session.addNode("n1").allocatable("cpu", "64", "memory", "64Gi", "pods", "110");

  private RecordingExtensions open() {
    return RecordingExtensions.open(new GangPlugin(), session);
  }

  private static FakeJob running(FakeJob job, int tasks, FakeNode node) {
    for (int i = 0; i < tasks; i++) {
      job.task(job.name() + "-" + i).requests("cpu", "1").status(TaskStatus.RUNNING).on(node);
    }
    return job;
  }

  @Test
  void registersExactlyVolcanosExtensionPoints() {
    assertThat(open().points())
        .containsExactlyInAnyOrder(
            ExtensionPoint.JOB_VALID,
            ExtensionPoint.PREEMPTABLE,
            ExtensionPoint.RECLAIMABLE,
            ExtensionPoint.JOB_ORDER,
            ExtensionPoint.JOB_READY,
            ExtensionPoint.JOB_PIPELINED,
            ExtensionPoint.JOB_STARVING);
  }

  @Test
  void jobValid_reportsTooFewValidTasksWithCounts() {
    FakeJob job = session.addJob("ns/j").minMember(3);
    job.task("a").requests("cpu", "1");
    job.task("b").requests("cpu", "1").status(TaskStatus.FAILED);
    job.task("c").requests("cpu", "1").status(TaskStatus.RUNNING);

    ValidationResult result = open().get(ExtensionPoint.JOB_VALID).validate(job);

    assertThat(result)
        .isEqualTo(
            new ValidationResult(
                false,
                "NotEnoughTasks",
                "Not enough valid tasks for gang-scheduling, valid: 2, min: 3"));
  }

  @Test
  void jobValid_reportsRoleShortOfItsMinimumFirst() {
    FakeJob job = session.addJob("ns/j").minMember(2).minTaskMember("ps", 1).minTaskMember("w", 1);
    job.task("w0").role("w").requests("cpu", "1");
    job.task("w1").role("w").requests("cpu", "1");

    ValidationResult result = open().get(ExtensionPoint.JOB_VALID).validate(job);

    assertThat(result)
        .isEqualTo(
            new ValidationResult(
                false,
                "NotEnoughPodsOfTask",
                "Not enough valid pods of each task for gang-scheduling"));
  }

  @Test
  void jobValid_passesWithEnoughTasks() {
    FakeJob job = session.addJob("ns/j").minMember(2);
    job.task("a").requests("cpu", "1");
    job.task("b").requests("cpu", "1").status(TaskStatus.PIPELINED);

    assertThat(open().get(ExtensionPoint.JOB_VALID).validate(job)).isNull();
  }

  @Test
  void preemptable_refusesAVictimThatWouldDropItsJobBelowMinMember() {
    FakeJob job = running(session.addJob("ns/j").minMember(2), 3, node);
    FakeTask preemptor = session.addJob("ns/p").task("p0");
    List<FakeTask> tasks = job.fakeTasks();

    Victims victims =
        open()
            .get(ExtensionPoint.PREEMPTABLE)
            .select(preemptor, List.of(tasks.get(2), tasks.get(0), tasks.get(1)));

    assertThat(victims.vote()).isEqualTo(Vote.PERMIT);
    assertThat(victims.tasks()).containsExactly(tasks.get(2));
  }

  @Test
  void reclaimable_countsEachJobSeparatelyAndSkipsOrphans() {
    FakeJob a = running(session.addJob("ns/a").minMember(1), 3, node);
    FakeJob b = running(session.addJob("ns/b").minMember(2), 2, node);
    FakeTask orphan = new FakeTask("ns/o").jobId("ns/gone").status(TaskStatus.RUNNING);
    FakeTask reclaimer = session.addJob("ns/r").task("r0");
    List<FakeTask> at = a.fakeTasks();
    List<FakeTask> bt = b.fakeTasks();

    Victims victims =
        open()
            .get(ExtensionPoint.RECLAIMABLE)
            .select(reclaimer, List.of(at.get(0), bt.get(0), orphan, at.get(1), at.get(2)));

    assertThat(victims.tasks()).containsExactly(at.get(0), at.get(1));
  }

  @Test
  void preemptable_permitsEmptyWhenEveryJobIsAtMinMember() {
    FakeJob job = running(session.addJob("ns/j").minMember(2), 2, node);

    Victims victims =
        open()
            .get(ExtensionPoint.PREEMPTABLE)
            .select(session.addJob("ns/p").task("p0"), List.copyOf(job.tasks()));

    assertThat(victims.vote()).isEqualTo(Vote.PERMIT);
    assertThat(victims.tasks()).isEmpty();
  }

  @Test
  void jobOrder_putsNotReadyJobsFirst() {
    FakeJob ready = running(session.addJob("ns/ready").minMember(1), 1, node);
    FakeJob notReady = session.addJob("ns/nr").minMember(1);
    notReady.task("x").requests("cpu", "1");
    FakeJob alsoReady = running(session.addJob("ns/ready2").minMember(1), 1, node);
    var order = open().get(ExtensionPoint.JOB_ORDER);

    assertThat(order.compare(notReady, ready)).isNegative();
    assertThat(order.compare(ready, notReady)).isPositive();
    assertThat(order.compare(ready, alsoReady)).isZero();
  }

  @Test
  void jobReady_needsMinMemberAndEveryRoleMinimum() {
    FakeJob job = session.addJob("ns/j").minMember(2).minTaskMember("ps", 1).minTaskMember("w", 1);
    job.task("w0").role("w").requests("cpu", "1").status(TaskStatus.RUNNING).on(node);
    FakeTask w1 = job.task("w1").role("w").requests("cpu", "1").status(TaskStatus.ALLOCATED);
    FakeTask ps = job.task("ps").role("ps").requests("cpu", "1");
    var ready = open().get(ExtensionPoint.JOB_READY);

    assertThat(job.isReady()).isTrue();
    assertThat(ready.test(job)).isFalse();

    w1.status(TaskStatus.PENDING);
    ps.status(TaskStatus.ALLOCATED);
    assertThat(ready.test(job)).isTrue();
  }

  @Test
  void jobPipelined_permitsWhenWaitingPlusReadyReachMinMemberElseRejects() {
    FakeJob job = session.addJob("ns/j").minMember(2);
    job.task("a").requests("cpu", "1").status(TaskStatus.RUNNING).on(node);
    FakeTask b = job.task("b").requests("cpu", "1");
    var pipelined = open().get(ExtensionPoint.JOB_PIPELINED);

    assertThat(pipelined.vote(job)).isEqualTo(Vote.REJECT);
    b.status(TaskStatus.PIPELINED);
    assertThat(pipelined.vote(job)).isEqualTo(Vote.PERMIT);
  }

  @Test
  void jobStarving_whileWaitingPlusReadyBelowMinMember() {
    FakeJob job = session.addJob("ns/j").minMember(2);
    job.task("a").requests("cpu", "1").status(TaskStatus.RUNNING).on(node);
    FakeTask b = job.task("b").requests("cpu", "1");
    job.task("c").requests("cpu", "1");
    var starving = open().get(ExtensionPoint.JOB_STARVING);

    assertThat(starving.test(job)).isTrue();
    b.status(TaskStatus.PIPELINED);
    assertThat(starving.test(job)).isFalse();
  }

  @Test
  void sessionClose_marksUnreadyJobUnschedulableCountingDiscardedAllocations() {
    FakeJob job = session.addJob("ns/j").minMember(4);
    job.task("a").requests("cpu", "1").status(TaskStatus.RUNNING).on(node);
    job.task("b").requests("cpu", "1").lastTransactionStatus(TaskStatus.ALLOCATED);
    job.task("c").requests("cpu", "1");
    job.task("d").requests("cpu", "1");
    job.task("e").requests("cpu", "1");
    session.fitError(job, "pod group is not ready, 1 Running, 4 Pending, 4 minAvailable");

    new GangPlugin().onSessionClose(session);

    assertThat(session.conditions(job))
        .containsExactly(
            new PodCondition(
                "Unschedulable",
                "True",
                "NotEnoughResources",
                "2/5 tasks in gang unschedulable: pod group is not ready, 1 Running, 4 Pending,"
                    + " 4 minAvailable"));
  }

  @Test
  void sessionClose_marksReadyJobScheduledAndSkipsJobsWithoutTasks() {
    FakeJob ready = running(session.addJob("ns/ready").minMember(2), 2, node);
    FakeJob empty = session.addJob("ns/empty").minMember(1);

    new GangPlugin().onSessionClose(session);

    assertThat(session.condition(ready, "Scheduled"))
        .isEqualTo(
            new PodCondition("Scheduled", "True", "tasks in gang are ready to be scheduled", ""));
    assertThat(session.conditions(ready)).hasSize(1);
    assertThat(session.conditions(empty)).isEmpty();
  }

  @Test
  void sessionClose_treatsJobShortOnlyByReleasingPodsAsScheduled() {
    FakeJob job = running(session.addJob("ns/j").minMember(3), 2, node);
    FakeTask releasing = job.task("r").requests("cpu", "1").status(TaskStatus.RELEASING).on(node);

    new GangPlugin().onSessionClose(session);
    assertThat(session.condition(job, "Scheduled")).isNotNull();
    assertThat(session.condition(job, "Unschedulable")).isNull();

    releasing.on(null);
    new GangPlugin().onSessionClose(session);
    assertThat(session.condition(job, "Unschedulable").message())
        .startsWith("1/3 tasks in gang unschedulable: ");
  }

  @Test
  void sessionClose_releasingPodsDoNotHelpWhilePendingTasksRemain() {
    FakeJob job = running(session.addJob("ns/j").minMember(3), 2, node);
    job.task("r").requests("cpu", "1").status(TaskStatus.RELEASING).on(node);
    job.task("p").requests("cpu", "1");

    new GangPlugin().onSessionClose(session);

    assertThat(session.condition(job, "Unschedulable")).isNotNull();
  }

  @Test
  void factory_ignoresUnknownArguments() {
    var plugin =
        new GangPluginFactory().create(new PluginArguments("gang", Map.of("foo", "bar"), false));

    assertThat(plugin).isInstanceOf(GangPlugin.class);
    assertThat(new GangPluginFactory().name()).isEqualTo("gang");
  }
}
