package dev.caldera.framework.internal.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.action.ActionSession;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.Pod;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A session takes again the tasks, jobs and nodes the last one opened when neither the cluster nor
 * that session changed them, and opens everything else anew. (That decisions are the same either
 * way is checked on every scenario by the integration tests' CarriedStatesAgreeTest.)
 */
class CarriedStatesTest {

  private static final String CONF =
      """
      actions: probe
      tiers:
      - plugins: [{name: a}]
      """;

  /** What a session opened with: its views by key, as the probe action saw them. */
  private static final class Seen implements Consumer<ActionSession> {
    final Map<String, JobInfo> jobs = new HashMap<>();
    final Map<String, NodeInfo> nodes = new HashMap<>();
    final Map<String, TaskInfo> tasks = new HashMap<>();
    final Map<String, PodGroupPhase> phases = new HashMap<>();
    private final Consumer<ActionSession> then;

    Seen(Consumer<ActionSession> then) {
      this.then = then;
    }

    @Override
    public void accept(ActionSession session) {
      for (JobInfo j : session.jobs()) {
        jobs.put(j.uid(), j);
        phases.put(j.uid(), j.phase());
        j.tasks().forEach(t -> tasks.put(t.key(), t));
      }
      session.nodes().forEach(n -> nodes.put(n.name(), n));
      then.accept(session);
    }
  }

  private static SessionProbe cluster() {
    return new SessionProbe()
        .plugin("a", (s, x) -> {})
        .node("n1", "8")
        .node("n2", "8")
        .job("running", 2, "r-1@n1", "r-2@n1")
        .job("other", 1, "o-1@n2")
        .job("waiting", 1, "w-1");
  }

  @Test
  void whatNothingChanged_isTakenAgain_andAFreshCarryOpensAll() throws Exception {
    SessionProbe probe = cluster();
    CarriedStates carried = new CarriedStates();
    Seen first = new Seen(s -> {});
    probe.run(CONF, first, carried);
    Seen second = new Seen(s -> {});
    probe.run(CONF, second, carried);

    assertThat(second.jobs.get("ns/running")).isSameAs(first.jobs.get("ns/running"));
    assertThat(second.jobs.get("ns/waiting")).isSameAs(first.jobs.get("ns/waiting"));
    assertThat(second.nodes.get("n1")).isSameAs(first.nodes.get("n1"));
    assertThat(second.tasks.get("ns/r-1")).isSameAs(first.tasks.get("ns/r-1"));
    assertThat(second.nodes.get("n1").tasks())
        .containsExactlyElementsOf(first.nodes.get("n1").tasks());

    Seen fresh = new Seen(s -> {});
    probe.run(CONF, fresh, new CarriedStates());
    assertThat(fresh.jobs.get("ns/running")).isNotSameAs(first.jobs.get("ns/running"));
    assertThat(fresh.nodes.get("n1")).isNotSameAs(first.nodes.get("n1"));
  }

  @Test
  void whatTheSessionChanged_isOpenedAnew_inTheStateTheClusterGives() throws Exception {
    SessionProbe probe = cluster();
    CarriedStates carried = new CarriedStates();
    Seen first =
        new Seen(
            s -> {
              TaskInfo waiting = s.job("ns/waiting").tasks().get(0);
              assertThat(s.allocate(waiting, s.node("n2")).isSuccess()).isTrue();
              s.setJobPhase(s.job("ns/running"), PodGroupPhase.Pending);
            });
    probe.run(CONF, first, carried);
    Seen second = new Seen(s -> {});
    probe.run(CONF, second, carried);

    assertThat(second.jobs.get("ns/waiting")).isNotSameAs(first.jobs.get("ns/waiting"));
    assertThat(second.tasks.get("ns/w-1")).isNotSameAs(first.tasks.get("ns/w-1"));
    assertThat(second.tasks.get("ns/w-1").status()).isEqualTo(TaskStatus.PENDING);
    assertThat(second.tasks.get("ns/w-1").nodeName()).isEmpty();
    assertThat(second.nodes.get("n2")).isNotSameAs(first.nodes.get("n2"));
    assertThat(second.nodes.get("n2").tasks()).extracting(TaskInfo::key).containsExactly("ns/o-1");
    assertThat(second.nodes.get("n2").idle().milliCpu()).isEqualTo(7000);

    assertThat(second.nodes.get("n1")).isSameAs(first.nodes.get("n1"));
    assertThat(second.jobs.get("ns/running")).isSameAs(first.jobs.get("ns/running"));
    assertThat(second.phases.get("ns/running"))
        .as("the phase the last session set is the pod group's again")
        .isEqualTo(PodGroupPhase.Inqueue);
  }

  @Test
  void aChangedPod_isANewTask_andItsJobAndNodeAreOpenedAnew() throws Exception {
    SessionProbe probe = cluster();
    CarriedStates carried = new CarriedStates();
    Seen first = new Seen(s -> {});
    probe.run(CONF, first, carried);
    Pod r2 = probe.pods.get(1);
    probe.pods.set(1, new SessionProbe().job("running", 2, "r-2@n1").pods.get(0));
    assertThat(probe.pods.get(1)).isNotSameAs(r2);
    Seen second = new Seen(s -> {});
    probe.run(CONF, second, carried);

    assertThat(second.tasks.get("ns/r-2")).isNotSameAs(first.tasks.get("ns/r-2"));
    assertThat(second.tasks.get("ns/r-1")).isSameAs(first.tasks.get("ns/r-1"));
    assertThat(second.jobs.get("ns/running")).isNotSameAs(first.jobs.get("ns/running"));
    assertThat(second.jobs.get("ns/running").tasks())
        .extracting(TaskInfo::key)
        .containsExactly("ns/r-1", "ns/r-2");
    assertThat(second.nodes.get("n1")).isNotSameAs(first.nodes.get("n1"));
    assertThat(second.nodes.get("n1").tasks())
        .extracting(TaskInfo::key)
        .containsExactly("ns/r-1", "ns/r-2");
    assertThat(second.nodes.get("n2")).isSameAs(first.nodes.get("n2"));
  }

  @Test
  void aPodGone_opensItsJobAndNodeAnew_withTheTasksLeft() throws Exception {
    SessionProbe probe = cluster();
    CarriedStates carried = new CarriedStates();
    Seen first = new Seen(s -> {});
    probe.run(CONF, first, carried);
    probe.pods.remove(0);
    Seen second = new Seen(s -> {});
    probe.run(CONF, second, carried);

    assertThat(second.jobs.get("ns/running")).isNotSameAs(first.jobs.get("ns/running"));
    assertThat(second.jobs.get("ns/running").tasks())
        .extracting(TaskInfo::key)
        .containsExactly("ns/r-2");
    assertThat(second.tasks.get("ns/r-2")).isSameAs(first.tasks.get("ns/r-2"));
    assertThat(second.nodes.get("n1").tasks()).extracting(TaskInfo::key).containsExactly("ns/r-2");
    assertThat(second.nodes.get("n1").idle().milliCpu()).isEqualTo(7000);
  }

  @Test
  void aSessionThatFails_handsNothingOver() throws Exception {
    SessionProbe probe = cluster();
    CarriedStates carried = new CarriedStates();
    Seen first = new Seen(s -> {});
    probe.run(CONF, first, carried);
    assertThatThrownBy(
            () ->
                probe.run(
                    CONF,
                    s -> {
                      throw new IllegalStateException("a plugin failed");
                    },
                    carried))
        .hasMessageContaining("a plugin failed");
    Seen third = new Seen(s -> {});
    probe.run(CONF, third, carried);

    assertThat(third.jobs.get("ns/running")).isNotSameAs(first.jobs.get("ns/running"));
    assertThat(third.nodes.get("n1")).isNotSameAs(first.nodes.get("n1"));
  }
}
