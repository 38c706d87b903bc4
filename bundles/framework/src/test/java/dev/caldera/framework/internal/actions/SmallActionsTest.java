package dev.caldera.framework.internal.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.action.Action;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeTask;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SmallActionsTest {

  private final FakeActionSession session = new FakeActionSession();

  @Test
  void enqueue_admitsJobsWithoutMinResourcesAndAsksPluginsForTheOthers() {
    session.addQueue("q");
    FakeJob free = session.addJob("ns/free", "q", 1).phase(PodGroupPhase.Pending);
    FakeJob sized =
        session.addJob("ns/sized", "q", 1).phase(PodGroupPhase.Pending).minResources("cpu", "1");
    FakeJob refused =
        session.addJob("ns/refused", "q", 1).phase(PodGroupPhase.Pending).minResources("cpu", "9");
    FakeJob orphan = session.addJob("ns/orphan", "missing", 1).phase(PodGroupPhase.Pending);
    session.enqueueable = j -> !j.uid().equals("ns/refused");

    new EnqueueAction().execute(session);

    assertThat(free.phase()).isEqualTo(PodGroupPhase.Inqueue);
    assertThat(sized.phase()).isEqualTo(PodGroupPhase.Inqueue);
    assertThat(refused.phase()).isEqualTo(PodGroupPhase.Pending);
    assertThat(orphan.phase()).isEqualTo(PodGroupPhase.Pending);
    assertThat(session.enqueued).containsExactly("ns/free", "ns/sized");
  }

  @Test
  void backfill_placesBestEffortTasksOnTheBestPassingNode() {
    session.addQueue("q");
    FakeNode n1 = session.addNode("n1", "cpu", "1", "pods", "10");
    session.addNode("n2", "cpu", "1", "pods", "10");
    session.addNode("n3", "cpu", "1", "pods", "10");
    FakeJob job = session.addJob("ns/job", "q", 1);
    FakeTask be = job.task("be-0");
    FakeTask pipelined = job.task("be-1").status(TaskStatus.PIPELINED).on(n1);
    FakeTask sized = job.task("sized").requests("cpu", "1");
    FakeTask nowhere = session.addJob("ns/other", "q", 1).task("be-x");
    session.predicate =
        (t, n) ->
            t.name().equals("be-x") || n.name().equals("n1")
                ? Status.unschedulable("no")
                : Status.OK;
    session.score = (t, n) -> n.name().equals("n3") ? 1 : 0;

    new BackfillAction().execute(session);

    assertThat(session.bound).containsExactly("ns/be-0@n3", "ns/be-1@n3");
    assertThat(pipelined.status()).isEqualTo(TaskStatus.ALLOCATED);
    assertThat(be.status()).isEqualTo(TaskStatus.ALLOCATED);
    assertThat(sized.status()).isEqualTo(TaskStatus.PENDING);
    assertThat(nowhere.status()).isEqualTo(TaskStatus.PENDING);
    assertThat(session.fitErrors.get("ns/be-x")).containsOnlyKeys("n1", "n2", "n3");
  }

  @Test
  void shuffle_evictsTheVictimsAmongRunningTasks() {
    session.addQueue("q");
    FakeNode n1 = session.addNode("n1", "cpu", "4", "pods", "10");
    FakeJob job = session.addJob("ns/job", "q", 1);
    job.task("a").status(TaskStatus.RUNNING).on(n1);
    job.task("b").status(TaskStatus.RUNNING).on(n1);
    job.task("c").status(TaskStatus.BOUND).on(n1);
    List<String> offered = new ArrayList<>();
    session.victimTasks =
        tasks -> {
          tasks.forEach(t -> offered.add(t.name()));
          return tasks.subList(1, tasks.size());
        };

    new ShuffleAction().execute(session);

    assertThat(offered).containsExactly("a", "b");
    assertThat(session.evicted).containsExactly("ns/b:shuffle");
  }

  @ParameterizedTest
  @ValueSource(strings = {"allocate", "backfill", "preempt", "reclaim"})
  void predicateErrorCacheEnable_badValueFailsNamingActionAndKey(String name) {
    Action action = actionNamed(name);
    session.arguments.put(name, Map.of("predicateErrorCacheEnable", "sometimes"));

    assertThatThrownBy(() -> action.execute(session))
        .isInstanceOf(PluginArgumentException.class)
        .hasMessage(
            "action "
                + name
                + ": argument predicateErrorCacheEnable is \"sometimes\", expected true or false");
  }

  @ParameterizedTest
  @ValueSource(strings = {"allocate", "backfill", "preempt", "reclaim"})
  void predicateErrorCacheEnable_acceptsBooleansAndTheirSpelling(String name) {
    session.arguments.put(name, Map.of("predicateErrorCacheEnable", "false"));
    actionNamed(name).execute(session);
    session.arguments.put(name, Map.of("predicateErrorCacheEnable", true));
    actionNamed(name).execute(session);
  }

  private static Action actionNamed(String name) {
    for (Action a : ServiceLoader.load(Action.class)) {
      if (a.name().equals(name)) {
        return a;
      }
    }
    throw new AssertionError("no action " + name);
  }

  @Test
  void serviceLoader_findsEveryBuiltInActionByItsName() {
    List<String> names = new ArrayList<>();
    for (Action a : ServiceLoader.load(Action.class)) {
      names.add(a.name());
    }
    assertThat(names)
        .containsExactlyInAnyOrder(
            "enqueue", "allocate", "backfill", "preempt", "reclaim", "shuffle");
  }
}
