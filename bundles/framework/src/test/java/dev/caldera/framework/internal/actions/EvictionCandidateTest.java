package dev.caldera.framework.internal.actions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.info.TaskInfo;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeTask;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EvictionCandidateTest {

  private int next;

  private EvictionCandidate candidate(String node, int... priorities) {
    List<TaskInfo> victims = new ArrayList<>();
    for (int p : priorities) {
      victims.add(new FakeTask("ns/v" + next++).priority(p));
    }
    return new EvictionCandidate(new FakeNode(node), victims);
  }

  private static String bestNode(EvictionCandidate... candidates) {
    return EvictionCandidate.best(List.of(candidates)).node().name();
  }

  @Test
  void best_prefersTheLowestFirstVictimPriority() {
    assertThat(bestNode(candidate("a", 10), candidate("b", 5, 5, 5))).isEqualTo("b");
  }

  @Test
  void best_thenTheLowestPrioritySum() {
    assertThat(bestNode(candidate("a", 5, 4), candidate("b", 5, 1))).isEqualTo("b");
  }

  @Test
  void best_thenTheFewestVictims() {
    // Each victim adds priority + 2^31 to the sum, so equal sums with different counts need a
    // victim of priority -2^31.
    assertThat(bestNode(candidate("a", 0, Integer.MIN_VALUE), candidate("b", 0))).isEqualTo("b");
    assertThat(bestNode(candidate("a", 0), candidate("b", 0, Integer.MIN_VALUE))).isEqualTo("a");
  }

  @Test
  void best_thenTheLatestStartOfTheMostImportantVictims() {
    EvictionCandidate older = candidate("older", 3);
    EvictionCandidate newer = candidate("newer", 3);
    ((FakeTask) older.victims().get(0)).created(100);
    ((FakeTask) newer.victims().get(0)).created(200);

    assertThat(bestNode(older, newer)).isEqualTo("newer");
  }

  @Test
  void best_noVictimsBeatsAnyEvictionAndTiesGoToTheFirst() {
    assertThat(bestNode(candidate("a", 1), candidate("b"))).isEqualTo("b");
    assertThat(bestNode(candidate("a", 2), candidate("b", 2))).isEqualTo("a");
    assertThat(EvictionCandidate.best(List.of())).isNull();
  }
}
