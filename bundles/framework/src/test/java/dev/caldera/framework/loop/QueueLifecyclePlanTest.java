package dev.caldera.framework.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.Queue;
import dev.caldera.framework.loop.QueueLifecycle.Change;
import dev.caldera.framework.loop.QueueLifecycle.Command;
import dev.caldera.framework.loop.QueueLifecycle.Plan;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueueLifecyclePlanTest {

  private static Queue queue(String name, String parent, String state) {
    return new Queue(
        ObjectMeta.named("", name), 1, null, null, null, null, parent, 0, null, null, state, null);
  }

  // root ─ team-a ─ training, inference (Closed) ─ inference-gpu ; team-b
  private final List<Queue> tree =
      List.of(
          queue("root", "", "Open"),
          queue("team-a", "root", "Open"),
          queue("team-b", "root", "Open"),
          queue("training", "team-a", "Open"),
          queue("inference", "team-a", "Closed"),
          queue("inference-gpu", "inference", "Open"));

  @Test
  void close_parent_closesEveryOpenQueueUnderIt_parentsFirst() {
    Plan plan = QueueLifecycle.plan("team-a", Command.CLOSE, tree);

    assertThat(plan.refused()).isNull();
    assertThat(plan.changes())
        .containsExactly(
            new Change("team-a", "Closing", null),
            new Change("training", "Closing", null),
            new Change("inference-gpu", "Closing", null));
    assertThat(QueueLifecycle.done(plan, Command.CLOSE, tree))
        .isEqualTo("queue team-a is Closing; so are the queues under it: training, inference-gpu");
  }

  @Test
  void drain_parent_drainsEveryQueueUnderIt_closedOnesKeepTheirState() {
    Plan plan = QueueLifecycle.plan("team-a", Command.DRAIN, tree);

    assertThat(plan.changes())
        .containsExactly(
            new Change("team-a", "Closing", true),
            new Change("inference", "Closed", true),
            new Change("training", "Closing", true),
            new Change("inference-gpu", "Closing", true));
  }

  @Test
  void closeOrDrain_root_isRefused() {
    Plan close = QueueLifecycle.plan("root", Command.CLOSE, tree);
    Plan drain = QueueLifecycle.plan("root", Command.DRAIN, tree);

    assertThat(close.changes()).isEmpty();
    assertThat(close.refused())
        .isEqualTo(
            "queue root cannot be closed: every queue is under it; close its child queues instead");
    assertThat(drain.refused())
        .isEqualTo(
            "queue root cannot be drained: every queue is under it; drain its child queues"
                + " instead");
  }

  @Test
  void open_underAClosedParent_isRefused() {
    Plan plan = QueueLifecycle.plan("inference-gpu", Command.OPEN, tree);

    assertThat(plan.changes()).isEmpty();
    assertThat(plan.refused())
        .isEqualTo(
            "queue inference-gpu cannot be opened while its parent queue inference is Closed:"
                + " open inference first");
  }

  @Test
  void open_parent_leavesItsClosedChildrenAsTheyAre_andSaysSo() {
    Plan plan = QueueLifecycle.plan("team-a", Command.OPEN, tree);

    assertThat(plan.changes()).containsExactly(new Change("team-a", "Open", false));
    assertThat(QueueLifecycle.done(plan, Command.OPEN, tree))
        .isEqualTo(
            "queue team-a is Open; the queues under it stay as they are: inference (Closed) (open"
                + " each with caldera queue open NAME)");
  }

  @Test
  void close_aQueueWithoutChildren_changesItAlone() {
    Plan plan = QueueLifecycle.plan("team-b", Command.DRAIN, tree);

    assertThat(plan.changes()).containsExactly(new Change("team-b", "Closing", true));
    assertThat(QueueLifecycle.done(plan, Command.DRAIN, tree))
        .isEqualTo("queue team-b is Closing; what runs of it is being evicted");
  }
}
