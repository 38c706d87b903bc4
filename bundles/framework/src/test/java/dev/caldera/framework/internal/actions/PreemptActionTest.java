package dev.caldera.framework.internal.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeTask;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PreemptActionTest {

  private final FakeActionSession session = new FakeActionSession();

  PreemptActionTest() {
    session.addQueue("q");
  }

  private FakeNode node(String name, String cpu) {
    return session.addNode(name, "cpu", cpu, "memory", "64Gi", "pods", "10");
  }

  private static FakeTask running(FakeJob job, String name, String cpu, FakeNode node) {
    return job.task(name).requests("cpu", cpu).status(TaskStatus.RUNNING).on(node);
  }

  private void topologyAware(Map<String, Object> more) {
    Map<String, Object> args = new java.util.HashMap<>(more);
    args.put("enableTopologyAwarePreemption", true);
    session.arguments.put("preempt", args);
  }

  @Test
  void preempt_evictsLowestFirstOnlyUntilThePreemptorFits() {
    FakeNode n1 = node("n1", "4");
    FakeJob low = session.addJob("ns/low", "q", 1);
    running(low, "low-0", "1", n1);
    running(low, "low-1", "1", n1);
    running(low, "low-2", "1", n1);
    FakeJob high = session.addJob("ns/high", "q", 1).priority(10);
    FakeTask preemptor = high.task("high-0").requests("cpu", "3");

    new PreemptAction().execute(session);

    assertThat(session.evicted).containsExactly("ns/low-2:preempt", "ns/low-1:preempt");
    assertThat(session.evictedFor).containsEntry("ns/low-2", "ns/high-0");
    assertThat(preemptor.status()).isEqualTo(TaskStatus.PIPELINED);
    assertThat(preemptor.nodeName()).isEqualTo("n1");
    assertThat(preemptor.evictionOccurred()).isTrue();
  }

  @Test
  void preempt_triesNodesByDescendingScore() {
    FakeNode n1 = node("n1", "2");
    FakeNode n2 = node("n2", "2");
    FakeJob low = session.addJob("ns/low", "q", 1);
    running(low, "low-a", "2", n1);
    running(low, "low-b", "2", n2);
    session.addJob("ns/high", "q", 1).task("high-0").requests("cpu", "2");
    session.score = (t, n) -> n.name().equals("n2") ? 5 : 1;

    new PreemptAction().execute(session);

    assertThat(session.evicted).containsExactly("ns/low-b:preempt");
  }

  @Test
  void preempt_discardsEvictionsWhenTheJobDoesNotBecomePipelined() {
    FakeNode n1 = node("n1", "4");
    FakeJob low = session.addJob("ns/low", "q", 1);
    FakeTask victim = running(low, "low-0", "3", n1);
    FakeJob high = session.addJob("ns/high", "q", 2);
    FakeTask first = high.task("high-0").requests("cpu", "3");
    high.task("high-1").requests("cpu", "3");

    new PreemptAction().execute(session);

    assertThat(session.evicted).isEmpty();
    assertThat(victim.status()).isEqualTo(TaskStatus.RUNNING);
    assertThat(first.status()).isEqualTo(TaskStatus.PENDING);
  }

  @Test
  void preempt_neverEvictsForANonAllocatableQueue() {
    FakeNode n1 = node("n1", "1");
    running(session.addJob("ns/low", "q", 1), "low-0", "1", n1);
    session.addJob("ns/high", "q", 1).task("high-0").requests("cpu", "1");
    session.allocatable = (q, t) -> false;

    new PreemptAction().execute(session);

    assertThat(session.evicted).isEmpty();
  }

  @Test
  void preempt_skipsTasksThatNeverPreemptAndNodesWithUnresolvableErrors() {
    FakeNode n1 = node("n1", "1");
    FakeNode n2 = node("n2", "1");
    FakeJob low = session.addJob("ns/low", "q", 1);
    running(low, "low-0", "1", n1);
    running(low, "low-1", "1", n2);
    FakeJob high = session.addJob("ns/high", "q", 1);
    FakeTask preemptor = high.task("high-0").requests("cpu", "1");
    session.recordFitError(preemptor, "n1", Status.unresolvable("node selector"));

    new PreemptAction().execute(session);
    assertThat(session.evicted).containsExactly("ns/low-1:preempt");

    FakeActionSession other = new FakeActionSession();
    other.addQueue("q");
    FakeNode m1 = other.addNode("m1", "cpu", "1", "pods", "10");
    running(other.addJob("ns/low", "q", 1), "low-0", "1", m1);
    other.addJob("ns/high", "q", 1).task("high-0").requests("cpu", "1").preemptionPolicy("Never");
    new PreemptAction().execute(other);
    assertThat(other.evicted).isEmpty();
  }

  @Test
  void preempt_withinJobEvictsLowerTasksOfTheSameJob() {
    FakeNode n1 = node("n1", "2");
    FakeJob job = session.addJob("ns/job", "q", 3);
    running(job, "job-0", "1", n1).priority(1);
    running(job, "job-1", "1", n1).priority(1);
    job.task("job-2").requests("cpu", "1").priority(100);
    session.taskOrder =
        java.util.Comparator.comparingInt((dev.caldera.api.info.TaskInfo t) -> -t.priority())
            .thenComparing(dev.caldera.api.info.TaskInfo::name);

    new PreemptAction().execute(session);

    assertThat(session.evicted).containsExactly("ns/job-1:preempt");
  }

  @Test
  void topologyAware_reprievesVictimsThatAreNotNeeded() {
    FakeNode n1 = node("n1", "4");
    FakeJob low = session.addJob("ns/low", "q", 1);
    running(low, "a", "1", n1);
    running(low, "b", "2", n1);
    running(low, "c", "1", n1);
    session.addJob("ns/high", "q", 1).task("high-0").requests("cpu", "2");
    topologyAware(Map.of());

    new PreemptAction().execute(session);

    // removal order c, b (then fits); b is needed, c is reprieved
    assertThat(session.evicted).containsExactly("ns/b:preempt");
  }

  @Test
  void topologyAware_evictsOnlyThePodThatConflicts() {
    FakeNode n1 = node("n1", "8");
    FakeJob low = session.addJob("ns/low", "q", 1);
    running(low, "x", "1", n1);
    running(low, "y", "1", n1);
    FakeTask preemptor = session.addJob("ns/high", "q", 1).task("high-0").requests("cpu", "1");
    session.simulatePredicate =
        (removed, n) ->
            removed.stream().anyMatch(t -> t.name().equals("x"))
                ? Status.OK
                : Status.unschedulable("anti-affinity with x");
    topologyAware(Map.of());

    new PreemptAction().execute(session);

    assertThat(session.evicted).containsExactly("ns/x:preempt");
    assertThat(preemptor.status()).isEqualTo(TaskStatus.PIPELINED);
  }

  @Test
  void topologyAware_pipelinesWithoutEvictionWhenItAlreadyFits() {
    FakeNode n1 = node("n1", "8");
    running(session.addJob("ns/low", "q", 1), "a", "3", n1);
    FakeTask preemptor = session.addJob("ns/high", "q", 1).task("high-0").requests("cpu", "3");
    topologyAware(Map.of());

    new PreemptAction().execute(session);

    assertThat(session.evicted).isEmpty();
    assertThat(preemptor.status()).isEqualTo(TaskStatus.PIPELINED);
  }

  @Test
  void topologyAware_picksTheCandidateWithLowerPriorityVictims() {
    FakeNode n1 = node("n1", "1");
    FakeNode n2 = node("n2", "1");
    FakeJob low = session.addJob("ns/low", "q", 1);
    running(low, "important", "1", n1).priority(50);
    running(low, "cheap", "1", n2).priority(5);
    session.addJob("ns/high", "q", 1).task("high-0").requests("cpu", "1").priority(100);
    topologyAware(Map.of("minCandidateNodesAbsolute", 2));

    new PreemptAction().execute(session);

    assertThat(session.evicted).containsExactly("ns/cheap:preempt");
  }

  @Test
  void topologyAware_stopsAtTheFirstCandidateByDefaultOnSmallClusters() {
    FakeNode n1 = node("n1", "1");
    FakeNode n2 = node("n2", "1");
    FakeJob low = session.addJob("ns/low", "q", 1);
    running(low, "important", "1", n1).priority(50);
    running(low, "cheap", "1", n2).priority(5);
    session.addJob("ns/high", "q", 1).task("high-0").requests("cpu", "1").priority(100);
    topologyAware(Map.of());

    new PreemptAction().execute(session);

    assertThat(session.evicted).containsExactly("ns/important:preempt");
  }

  @Test
  void options_defaultsAndCandidateCount() {
    assertThat(PreemptOptions.of(session)).isEqualTo(PreemptOptions.DEFAULTS);
    assertThat(PreemptOptions.DEFAULTS.candidatesToFind(5)).isEqualTo(1);
    assertThat(PreemptOptions.DEFAULTS.candidatesToFind(500)).isEqualTo(50);
    assertThat(PreemptOptions.DEFAULTS.candidatesToFind(5000)).isEqualTo(100);
    assertThat(new PreemptOptions(true, true, 16, 10, 30, 100).candidatesToFind(7)).isEqualTo(7);
  }

  @Test
  void options_badValueNamesTheActionAndKey() {
    session.arguments.put("preempt", Map.of("enableTopologyAwarePreemption", "yes"));
    assertThatThrownBy(() -> PreemptOptions.of(session))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessage(
            "action preempt: argument enableTopologyAwarePreemption is \"yes\", expected true or"
                + " false");

    session.arguments.put("preempt", Map.of("minCandidateNodesAbsolute", 1.5));
    assertThatThrownBy(() -> PreemptOptions.of(session))
        .isInstanceOf(PluginArgumentException.class)
        .extracting(e -> ((PluginArgumentException) e).key())
        .isEqualTo("minCandidateNodesAbsolute");

    session.arguments.put("preempt", Map.of("predicateErrorCacheEnable", List.of()));
    assertThatThrownBy(() -> new PreemptAction().execute(session))
        .isInstanceOf(PluginArgumentException.class);
  }
}
