package dev.caldera.framework.internal.actions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.info.TaskStatus;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeTask;
import org.junit.jupiter.api.Test;

class ReclaimActionTest {

  private final FakeActionSession session = new FakeActionSession();

  private FakeNode node(String name, String cpu) {
    return session.addNode(name, "cpu", cpu, "memory", "64Gi", "pods", "10");
  }

  private static FakeTask running(FakeJob job, String name, String cpu, FakeNode node) {
    return job.task(name).requests("cpu", cpu).status(TaskStatus.RUNNING).on(node);
  }

  @Test
  void reclaim_evictsRunningTasksOfOtherReclaimableQueuesOnly() {
    session.addQueue("mine");
    session.addQueue("theirs");
    session.addQueue("locked").reclaimable(false);
    FakeNode n1 = node("n1", "3");
    running(session.addJob("ns/theirs", "theirs", 1), "t-0", "1", n1);
    running(session.addJob("ns/locked", "locked", 1), "l-0", "1", n1);
    running(session.addJob("ns/same", "mine", 1), "s-0", "1", n1);
    FakeTask reclaimer = session.addJob("ns/mine", "mine", 1).task("m-0").requests("cpu", "1");

    new ReclaimAction().execute(session);

    assertThat(session.evicted).containsExactly("ns/t-0:reclaim");
    assertThat(session.evictedFor).containsEntry("ns/t-0", "ns/m-0");
    assertThat(reclaimer.status()).isEqualTo(TaskStatus.PIPELINED);
    assertThat(reclaimer.evictionOccurred()).isTrue();
  }

  @Test
  void reclaim_usesTheFirstNodeInOrderWhereEnoughCanBeFreed() {
    session.addQueue("mine");
    session.addQueue("theirs");
    FakeNode small = node("small", "1");
    FakeNode big1 = node("big1", "2");
    FakeNode big2 = node("big2", "2");
    FakeJob theirs = session.addJob("ns/theirs", "theirs", 1);
    running(theirs, "a", "1", small);
    running(theirs, "b", "1", big1);
    running(theirs, "c", "1", big1);
    running(theirs, "d", "2", big2);
    session.score = (t, n) -> n.name().equals("big2") ? 100 : 0;
    session.addJob("ns/mine", "mine", 1).task("m-0").requests("cpu", "2");

    new ReclaimAction().execute(session);

    // reclaim does not score nodes: big1 comes first; c goes before b (reverse task order)
    assertThat(session.evicted).containsExactly("ns/c:reclaim", "ns/b:reclaim");
  }

  @Test
  void reclaim_doesNothingForAnOverusedQueueOrBoundVictims() {
    session.addQueue("mine");
    session.addQueue("theirs");
    FakeNode n1 = node("n1", "1");
    running(session.addJob("ns/theirs", "theirs", 1), "t-0", "1", n1).status(TaskStatus.BOUND);
    session.addJob("ns/mine", "mine", 1).task("m-0").requests("cpu", "1");

    new ReclaimAction().execute(session);
    assertThat(session.evicted).as("Bound tasks are not reclaimed").isEmpty();

    FakeActionSession overused = new FakeActionSession();
    overused.addQueue("mine");
    overused.addQueue("theirs");
    FakeNode m1 = overused.addNode("m1", "cpu", "1", "pods", "10");
    running(overused.addJob("ns/theirs", "theirs", 1), "t-0", "1", m1);
    overused.addJob("ns/mine", "mine", 1).task("m-0").requests("cpu", "1");
    overused.overused = q -> q.name().equals("mine");
    new ReclaimAction().execute(overused);
    assertThat(overused.evicted).isEmpty();
  }

  @Test
  void reclaim_pipelinesWithoutEvictionWhenTheNodeAlreadyFits() {
    session.addQueue("mine");
    session.addQueue("theirs");
    FakeNode n1 = node("n1", "2");
    FakeTask victim = running(session.addJob("ns/theirs", "theirs", 1), "t-0", "1", n1);
    FakeTask reclaimer = session.addJob("ns/mine", "mine", 1).task("m-0").requests("cpu", "1");

    new ReclaimAction().execute(session);

    assertThat(session.evicted).isEmpty();
    assertThat(victim.status()).isEqualTo(TaskStatus.RUNNING);
    assertThat(reclaimer.status()).isEqualTo(TaskStatus.PIPELINED);
    assertThat(reclaimer.evictionOccurred()).isFalse();
  }
}
