package dev.caldera.framework.internal.actions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.testkit.FakeNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeScoresTest {

  @Test
  void best_takesTheFirstMaximum() {
    assertThat(NodeScores.best(new double[] {1, 3, 2, 3})).isEqualTo(1);
    assertThat(NodeScores.best(new double[] {-5, -2})).isEqualTo(1);
    assertThat(NodeScores.best(new double[0])).isEqualTo(-1);
  }

  @Test
  void sortedByScore_descendingWithTiesInCandidateOrder() {
    List<NodeInfo> nodes =
        List.of(new FakeNode("a"), new FakeNode("b"), new FakeNode("c"), new FakeNode("d"));

    List<NodeInfo> sorted = NodeScores.sortedByScore(nodes, new double[] {1, 5, 1, 7});

    assertThat(sorted).extracting(NodeInfo::name).containsExactly("d", "b", "a", "c");
  }

  @Test
  void bestNode_doesNotScoreASingleCandidate() {
    FakeActionSession session = new FakeActionSession();
    FakeNode only = session.addNode("only", "cpu", "1");
    FakeNode low = session.addNode("low", "cpu", "1");
    FakeNode high = session.addNode("high", "cpu", "1");
    session.score = (t, n) -> n.name().equals("high") ? 10 : 1;
    var task = new dev.caldera.testkit.FakeTask("ns/p");

    assertThat(NodeScores.bestNode(session, task, List.of(only))).isSameAs(only);
    assertThat(session.scoreCalls).isZero();
    assertThat(NodeScores.bestNode(session, task, List.of(low, high))).isSameAs(high);
    assertThat(session.scoreCalls).isEqualTo(1);
  }
}
