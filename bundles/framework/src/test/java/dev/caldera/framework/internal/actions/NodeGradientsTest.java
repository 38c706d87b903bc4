package dev.caldera.framework.internal.actions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.extension.Status;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeTask;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeGradientsTest {

  private final FakeActionSession session = new FakeActionSession();

  private FakeNode node(String name, int freeCpu, int releasingCpu) {
    FakeNode n = session.addNode(name, "cpu", "4", "memory", "4Gi", "pods", "10");
    int used = 4 - freeCpu - releasingCpu;
    if (used > 0) {
      new FakeTask("ns/run-" + name)
          .requests("cpu", Integer.toString(used))
          .status(TaskStatus.RUNNING)
          .on(n);
    }
    if (releasingCpu > 0) {
      new FakeTask("ns/rel-" + name)
          .requests("cpu", Integer.toString(releasingCpu))
          .status(TaskStatus.RELEASING)
          .on(n);
    }
    return n;
  }

  private PredicateHelper.Filtered filter(FakeTask task, FakeNode... nodes) {
    NodeSet set = new NodeSet(List.of(nodes));
    return new PredicateHelper(set, true).filterAll(task, new AllocPredicate(session, task));
  }

  @Test
  void split_keepsOrderAndDropsNodesThatFitNeitherWay() {
    FakeNode future1 = node("future1", 1, 2);
    FakeNode idle1 = node("idle1", 2, 0);
    FakeNode full = node("full", 0, 1);
    FakeNode idle2 = node("idle2", 3, 0);
    FakeNode future2 = node("future2", 0, 2);
    FakeTask task = new FakeTask("ns/p").requests("cpu", "2");
    NodeGradients gradients = new NodeGradients(4);

    PredicateHelper.Filtered filtered = filter(task, future1, idle1, full, idle2, future2);
    gradients.split(filtered);
    filtered.recordFailures(session, task);

    assertThat(gradients.idle()).extracting(NodeInfo::name).containsExactly("idle1", "idle2");
    assertThat(gradients.futureIdle())
        .extracting(NodeInfo::name)
        .containsExactly("future1", "future2");
    assertThat(session.fitErrors.get("ns/p"))
        .containsExactly(java.util.Map.entry("full", Status.unschedulable("Insufficient cpu")));
  }

  @Test
  void split_aNodeFailingThePredicatesIsInNoGradient() {
    FakeNode idle = node("idle", 2, 0);
    FakeNode tainted = node("tainted", 2, 0);
    session.predicate =
        (t, n) -> n.name().equals("tainted") ? Status.unresolvable("taint") : Status.OK;
    FakeTask task = new FakeTask("ns/p").requests("cpu", "1");
    NodeGradients gradients = new NodeGradients(4);

    gradients.split(filter(task, idle, tainted));

    assertThat(gradients.idle()).containsExactly(idle);
    assertThat(gradients.futureIdle()).isEmpty();
  }

  @Test
  void choose_prefersAnIdleNodeOverABetterScoredFutureIdleNode() {
    FakeNode future = node("future", 0, 2);
    FakeNode idle = node("idle", 2, 0);
    session.score = (t, n) -> n.name().equals("future") ? 100 : 0;
    FakeTask task = new FakeTask("ns/p").requests("cpu", "2");

    assertThat(new NodeGradients(4).choose(session, task, filter(task, future, idle)))
        .isSameAs(idle);
    assertThat(session.scoreCalls).as("a single node is taken without scoring").isZero();
  }

  @Test
  void choose_scoresTheFutureIdleGradientWhenNoNodeIsIdle() {
    FakeNode a = node("a", 0, 2);
    FakeNode b = node("b", 1, 2);
    session.score = (t, n) -> n.name().equals("b") ? 5 : 1;
    FakeTask task = new FakeTask("ns/p").requests("cpu", "2");

    assertThat(new NodeGradients(4).choose(session, task, filter(task, a, b))).isSameAs(b);
    assertThat(new NodeGradients(4).choose(session, task, filter(task))).isNull();
  }
}
