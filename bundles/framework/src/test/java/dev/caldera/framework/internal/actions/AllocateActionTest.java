package dev.caldera.framework.internal.actions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.extension.Status;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeTask;
import org.junit.jupiter.api.Test;

class AllocateActionTest {

  private final FakeActionSession session = new FakeActionSession();

  AllocateActionTest() {
    session.addQueue("q");
  }

  private FakeNode node(String name, String cpu) {
    return session.addNode(name, "cpu", cpu, "memory", "64Gi", "pods", "10");
  }

  @Test
  void allocate_bindsAGangOnceItIsReady() {
    node("n1", "1");
    node("n2", "1");
    FakeJob job = session.addJob("ns/job", "q", 2);
    job.task("p-0").requests("cpu", "1");
    job.task("p-1").requests("cpu", "1");

    new AllocateAction().execute(session);

    assertThat(session.bound).containsExactly("ns/p-0@n1", "ns/p-1@n2");
  }

  @Test
  void allocate_discardsAGangThatCannotBeSatisfied() {
    node("n1", "2");
    FakeJob job = session.addJob("ns/job", "q", 3);
    FakeTask p0 = job.task("p-0").requests("cpu", "1");
    job.task("p-1").requests("cpu", "1");
    job.task("p-2").requests("cpu", "1");

    new AllocateAction().execute(session);

    assertThat(session.bound).isEmpty();
    assertThat(p0.status()).isEqualTo(TaskStatus.PENDING);
    assertThat(session.fitErrors.get("ns/p-2"))
        .containsEntry("n1", Status.unschedulable("Insufficient cpu"));
  }

  @Test
  void allocate_elasticJobGoesOnAfterAFailureAndBindsWhatFits() {
    node("n1", "2");
    FakeJob job = session.addJob("ns/job", "q", 1);
    job.task("p-0").requests("cpu", "1");
    job.task("p-1").requests("cpu", "1");
    job.task("p-2").requests("cpu", "1");
    job.task("p-3").requests("cpu", "1", "memory", "1Gi");

    new AllocateAction().execute(session);

    assertThat(session.bound).containsExactly("ns/p-0@n1", "ns/p-1@n1");
    assertThat(session.fitErrors).containsOnlyKeys("ns/p-2", "ns/p-3");
  }

  @Test
  void allocate_skipsTasksOfARoleThatAlreadyFailed() {
    node("n1", "1");
    FakeJob job = session.addJob("ns/job", "q", 1);
    job.task("w-0").role("worker").requests("cpu", "2");
    job.task("w-1").role("worker").requests("cpu", "2");
    job.task("z-0").role("other").requests("cpu", "1");
    int[] predicateCalls = {0};
    session.predicate =
        (t, n) -> {
          predicateCalls[0]++;
          return Status.OK;
        };

    new AllocateAction().execute(session);

    assertThat(session.bound).containsExactly("ns/z-0@n1");
    assertThat(session.fitErrors.get("ns/w-1"))
        .containsOnlyKeys("")
        .extractingByKey("")
        .extracting(Status::message)
        .isEqualTo("Task w-1 with role spec worker has already predicated failed, skip");
    assertThat(predicateCalls[0]).as("resources fail before predicates").isEqualTo(1);
  }

  @Test
  void allocate_prefersIdleNodesAndPipelinesOnReleasingResourcesOnly() {
    FakeNode busy = node("busy", "1");
    node("free", "1");
    session
        .addJob("ns/old", "q", 1)
        .task("old-0")
        .requests("cpu", "1")
        .status(TaskStatus.RELEASING)
        .on(busy);
    session.score = (t, n) -> n.name().equals("busy") ? 10 : 0;
    FakeJob job = session.addJob("ns/job", "q", 2);
    FakeTask p0 = job.task("p-0").requests("cpu", "1");
    FakeTask p1 = job.task("p-1").requests("cpu", "1");

    new AllocateAction().execute(session);

    assertThat(p0.status()).isEqualTo(TaskStatus.ALLOCATED);
    assertThat(p0.nodeName()).isEqualTo("free");
    assertThat(p1.status()).isEqualTo(TaskStatus.PIPELINED);
    assertThat(p1.nodeName()).isEqualTo("busy");
    assertThat(session.bound).as("only pipelined: neither committed nor discarded").isEmpty();
  }

  @Test
  void allocate_leavesPendingJobsToEnqueueWhenItIsConfigured() {
    node("n1", "1");
    FakeJob job = session.addJob("ns/job", "q", 1).phase(PodGroupPhase.Pending);
    job.task("p-0").requests("cpu", "1");

    session.configuredActions.add("enqueue");
    new AllocateAction().execute(session);
    assertThat(session.bound).isEmpty();
    assertThat(job.phase()).isEqualTo(PodGroupPhase.Pending);

    session.configuredActions.clear();
    new AllocateAction().execute(session);
    assertThat(job.phase()).isEqualTo(PodGroupPhase.Inqueue);
    assertThat(session.bound).containsExactly("ns/p-0@n1");
  }

  @Test
  void allocate_queuesTakeTurnsAndOverusedQueuesAreSkipped() {
    session.addQueue("a");
    session.addQueue("b");
    session.addQueue("c");
    node("n1", "4");
    session.addJob("ns/b1", "b", 1).task("b1-0").requests("cpu", "1");
    session.addJob("ns/a1", "a", 1).task("a1-0").requests("cpu", "1");
    session.addJob("ns/a2", "a", 1).task("a2-0").requests("cpu", "1");
    session.addJob("ns/c1", "c", 1).task("c1-0").requests("cpu", "1");
    session.overused = q -> q.name().equals("c");

    new AllocateAction().execute(session);

    assertThat(session.bound).containsExactly("ns/a1-0@n1", "ns/a2-0@n1", "ns/b1-0@n1");
  }
}
