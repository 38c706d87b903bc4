package dev.caldera.plugins.priority;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import dev.caldera.testkit.RecordingExtensions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PriorityPluginTest {

  private final FakeSession session = new FakeSession();

  private RecordingExtensions open() {
    return RecordingExtensions.open(new PriorityPlugin(), session);
  }

  @Test
  void registersExactlyVolcanosExtensionPoints() {
    assertThat(open().points())
        .containsExactlyInAnyOrder(
            ExtensionPoint.TASK_ORDER,
            ExtensionPoint.JOB_ORDER,
            ExtensionPoint.PREEMPTABLE,
            ExtensionPoint.JOB_STARVING);
  }

  @Test
  void taskOrder_putsHigherPriorityFirst() {
    FakeJob job = session.addJob("ns/j");
    FakeTask high = job.task("high").priority(10);
    FakeTask low = job.task("low").priority(5);
    FakeTask same = job.task("same").priority(10);
    var order = open().get(ExtensionPoint.TASK_ORDER);

    assertThat(order.compare(high, low)).isNegative();
    assertThat(order.compare(low, high)).isPositive();
    assertThat(order.compare(high, same)).isZero();
  }

  @Test
  void taskOrder_defaultsUnsetPriorityToOne() {
    FakeJob job = session.addJob("ns/j");
    FakeTask unset = job.task("unset");
    FakeTask zero = job.task("zero").priority(0);

    assertThat(open().get(ExtensionPoint.TASK_ORDER).compare(unset, zero)).isNegative();
  }

  @Test
  void jobOrder_putsHigherJobPriorityFirst() {
    FakeJob high = session.addJob("ns/high").priority(100);
    FakeJob low = session.addJob("ns/low").priority(1);
    var order = open().get(ExtensionPoint.JOB_ORDER);

    assertThat(order.compare(high, low)).isNegative();
    assertThat(order.compare(low, high)).isPositive();
    assertThat(order.compare(low, session.addJob("ns/low2").priority(1))).isZero();
  }

  @Test
  void preemptable_takesLowerPriorityJobsAndLowerPriorityTasksOfTheSameJob() {
    FakeJob preemptorJob = session.addJob("ns/p").priority(10);
    FakeTask preemptor = preemptorJob.task("p0").priority(5);
    FakeTask sameJobLower = preemptorJob.task("p1").priority(4).status(TaskStatus.RUNNING);
    FakeTask sameJobEqual = preemptorJob.task("p2").priority(5).status(TaskStatus.RUNNING);
    FakeTask lowerJob = session.addJob("ns/low").priority(9).task("l0").priority(100);
    FakeTask equalJob = session.addJob("ns/eq").priority(10).task("e0").priority(1);
    FakeTask orphan = new FakeTask("ns/orphan").jobId("ns/gone");

    Victims victims =
        open()
            .get(ExtensionPoint.PREEMPTABLE)
            .select(preemptor, List.of(equalJob, lowerJob, orphan, sameJobEqual, sameJobLower));

    assertThat(victims.vote()).isEqualTo(Vote.PERMIT);
    assertThat(victims.tasks()).containsExactly(lowerJob, sameJobLower);
  }

  @Test
  void preemptable_permitsNothingWhenThePreemptorsJobIsMissing() {
    FakeTask preemptor = new FakeTask("ns/p").jobId("ns/gone");
    FakeTask candidate = session.addJob("ns/low").task("l0");

    Victims victims = open().get(ExtensionPoint.PREEMPTABLE).select(preemptor, List.of(candidate));

    assertThat(victims.vote()).isEqualTo(Vote.PERMIT);
    assertThat(victims.tasks()).isEmpty();
  }

  @Test
  void jobStarving_whileSomeTaskIsNeitherReadyNorWaiting() {
    FakeJob job = session.addJob("ns/j").minMember(1);
    job.task("a").status(TaskStatus.RUNNING);
    job.task("b").status(TaskStatus.PIPELINED);
    var starving = open().get(ExtensionPoint.JOB_STARVING);
    assertThat(starving.test(job)).isFalse();

    job.task("c").status(TaskStatus.PENDING);
    assertThat(starving.test(job)).isTrue();
  }

  @Test
  void factory_ignoresUnknownArguments() {
    var plugin =
        new PriorityPluginFactory()
            .create(new PluginArguments("priority", Map.of("unexpected", "x"), false));

    assertThat(plugin.name()).isEqualTo("priority");
    assertThat(new PriorityPluginFactory().name()).isEqualTo("priority");
  }
}
