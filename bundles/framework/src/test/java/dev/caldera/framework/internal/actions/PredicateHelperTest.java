package dev.caldera.framework.internal.actions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.extension.Status;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeTask;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PredicateHelperTest {

  private static NodeSet nodes(int n) {
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      nodes.add(new FakeNode(String.format("n%04d", i)));
    }
    return new NodeSet(nodes);
  }

  /** Rejects the named nodes and counts the checks. */
  private static final class Check implements PredicateHelper.NodeCheck {
    final Set<String> rejected;
    final AtomicInteger calls = new AtomicInteger();

    Check(String... rejected) {
      this.rejected = Set.of(rejected);
    }

    @Override
    public Status check(dev.caldera.api.info.TaskInfo task, NodeInfo node) {
      calls.incrementAndGet();
      return rejected.contains(node.name()) ? Status.unresolvable("no " + node.name()) : Status.OK;
    }
  }

  @Test
  void filter_keepsCandidateOrderAndRecordsEveryFailure() {
    NodeSet nodes = nodes(5);
    FakeActionSession session = new FakeActionSession();
    FakeTask task = new FakeTask("ns/p");
    Check check = new Check("n0001", "n0003");

    PredicateHelper.Filtered result =
        new PredicateHelper(nodes, true).filter(task, new int[] {4, 3, 2, 1, 0}, 5, check);
    result.recordFailures(session, task);

    assertThat(result.feasible())
        .extracting(NodeInfo::name)
        .containsExactly("n0004", "n0002", "n0000");
    assertThat(session.fitErrors.get("ns/p")).containsOnlyKeys("n0003", "n0001");
  }

  @Test
  void filter_reusesFailuresOfTheSameJobAndRoleOnly() {
    NodeSet nodes = nodes(4);
    FakeJob job = new FakeJob("ns/job");
    FakeTask ps0 = job.task("ps-0").role("ps");
    FakeTask ps1 = job.task("ps-1").role("ps");
    FakeTask worker = job.task("w-0").role("worker");
    PredicateHelper helper = new PredicateHelper(nodes, true);
    Check check = new Check("n0002");

    helper.filterAll(ps0, check);
    assertThat(check.calls).hasValue(4);
    PredicateHelper.Filtered again = helper.filterAll(ps1, check);
    assertThat(check.calls).as("n0002 is not checked again for role ps").hasValue(7);
    assertThat(again.feasible()).hasSize(3);
    helper.filterAll(worker, check);
    assertThat(check.calls).hasValue(11);
  }

  @Test
  void filter_neverCachesForTasksWithoutRoleOrWhenDisabled() {
    NodeSet nodes = nodes(3);
    FakeJob job = new FakeJob("ns/job");
    Check check = new Check("n0000");
    PredicateHelper helper = new PredicateHelper(nodes, true);
    helper.filterAll(job.task("a"), check);
    helper.filterAll(job.task("b"), check);
    assertThat(check.calls).hasValue(6);

    PredicateHelper disabled = new PredicateHelper(nodes, false);
    disabled.filterAll(job.task("c").role("r"), check);
    disabled.filterAll(job.task("d").role("r"), check);
    assertThat(check.calls).hasValue(12);
  }

  @Test
  void filter_manyNodesInParallelGiveTheSameOrderedResult() {
    int n = PredicateHelper.PARALLEL_THRESHOLD * 3;
    NodeSet nodes = nodes(n);
    List<String> rejected = new ArrayList<>();
    for (int i = 0; i < n; i += 7) {
      rejected.add(String.format("n%04d", i));
    }
    Check check = new Check(rejected.toArray(new String[0]));
    FakeTask task = new FakeTask("ns/p");

    List<NodeInfo> feasible = new PredicateHelper(nodes, true).filterAll(task, check).feasible();

    List<String> expected = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (i % 7 != 0) {
        expected.add(String.format("n%04d", i));
      }
    }
    assertThat(feasible).extracting(NodeInfo::name).containsExactlyElementsOf(expected);
    assertThat(check.calls).hasValue(n);
  }
}
