package dev.caldera.runtime.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.caldera.api.model.Pod;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.SessionResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BenchRunnerTest {

  /**
   * A fake session that binds up to {@code perSession} pending pods, in order, to the first node.
   */
  private static final class BindingSession implements BenchRunner.SessionFn {
    final int perSession;
    final String node;
    int calls;

    BindingSession(int perSession, String node) {
      this.perSession = perSession;
      this.node = node;
    }

    @Override
    public SessionResult run(ClusterSnapshot snapshot) {
      calls++;
      List<SessionResult.Bind> binds = new ArrayList<>();
      for (Pod p : snapshot.pods()) {
        if (binds.size() < perSession && p.nodeName().isEmpty()) {
          binds.add(new SessionResult.Bind(p.key(), node));
        }
      }
      return new SessionResult(
          "s" + calls,
          binds,
          List.of(),
          List.of(),
          Map.of(),
          Map.of(),
          Map.of(),
          List.of(),
          new SessionResult.SessionStats(binds.size(), binds.size() * 4L, binds.size() * 2L, 0));
    }
  }

  private static Workload workload(int sessions, int warmup) {
    return Workload.synthetic(2, 10, 1, 5, sessions, warmup);
  }

  @Test
  void run_measuresEverySessionOnTheSameCluster() throws Exception {
    SyntheticCluster cluster = SyntheticCluster.generate(2, 10, 1, 5);
    List<SessionMeasurement> seen = new ArrayList<>();

    BenchResult r =
        new BenchRunner(new BindingSession(4, "node-00000"))
            .run(workload(3, 0), cluster, cluster::copy, 3, 0, seen::add);

    assertThat(r.sessions()).extracting(SessionMeasurement::podsBound).containsExactly(4, 4, 2);
    assertThat(seen).isEqualTo(r.sessions());
    assertThat(r.podsBound()).isEqualTo(10);
    assertThat(r.podsPending()).isZero();
    assertThat(r.sessions().get(0).index()).isEqualTo(1);
    assertThat(r.totalMillis())
        .isCloseTo(
            r.sessions().stream().mapToDouble(SessionMeasurement::millis).sum(), within(1e-9));
  }

  @Test
  void run_averagesNodesFilteredAndScoredPerTask() throws Exception {
    SyntheticCluster cluster = SyntheticCluster.generate(2, 10, 1, 5);

    BenchResult r =
        new BenchRunner(new BindingSession(10, "node-00000"))
            .run(workload(1, 0), cluster, cluster::copy, 1, 0, m -> {});

    SessionMeasurement m = r.sessions().get(0);
    assertThat(m.tasksConsidered()).isEqualTo(10);
    assertThat(m.avgNodesFilteredPerTask()).isEqualTo(4.0);
    assertThat(m.avgNodesScoredPerTask()).isEqualTo(2.0);
  }

  @Test
  void run_countsPodsLeftPending() throws Exception {
    SyntheticCluster cluster = SyntheticCluster.generate(2, 10, 1, 5);

    BenchResult r =
        new BenchRunner(new BindingSession(3, "node-00000"))
            .run(workload(1, 0), cluster, cluster::copy, 1, 0, m -> {});

    assertThat(r.podsPending()).isEqualTo(7);
  }

  @Test
  void run_warmsUpOnACopyWithoutTouchingTheMeasuredCluster() throws Exception {
    SyntheticCluster cluster = SyntheticCluster.generate(2, 10, 1, 5);
    BindingSession session = new BindingSession(10, "node-00000");

    BenchResult r =
        new BenchRunner(session).run(workload(1, 2), cluster, cluster::copy, 1, 2, m -> {});

    assertThat(session.calls).isEqualTo(3);
    assertThat(r.sessions()).hasSize(1);
    assertThat(r.sessions().get(0).podsBound()).isEqualTo(10);
  }

  @Test
  void run_givesTheSameDigestForTheSameBindsAndAnotherForOthers() throws Exception {
    SyntheticCluster a = SyntheticCluster.generate(2, 10, 1, 5);
    SyntheticCluster b = SyntheticCluster.generate(2, 10, 1, 5);
    SyntheticCluster c = SyntheticCluster.generate(2, 10, 1, 5);

    String da =
        new BenchRunner(new BindingSession(10, "node-00000"))
            .run(workload(1, 0), a, a::copy, 1, 0, m -> {})
            .bindsDigest();
    String db =
        new BenchRunner(new BindingSession(10, "node-00000"))
            .run(workload(1, 0), b, b::copy, 1, 0, m -> {})
            .bindsDigest();
    String dc =
        new BenchRunner(new BindingSession(10, "node-00001"))
            .run(workload(1, 0), c, c::copy, 1, 0, m -> {})
            .bindsDigest();

    assertThat(da).hasSize(16).isEqualTo(db).isNotEqualTo(dc);
  }

  @Test
  void measure_reportsZeroAveragesWhenNoTaskWasConsidered() {
    SessionResult empty =
        new SessionResult(
            "u",
            List.of(),
            List.of(),
            List.of(),
            Map.of(),
            Map.of(),
            Map.of(),
            List.of(),
            new SessionResult.SessionStats(0, 0, 0, 0));

    SessionMeasurement m = BenchRunner.measure(1, 5.0, empty);

    assertThat(m.avgNodesFilteredPerTask()).isZero();
    assertThat(m.podsPerSecond()).isZero();
  }

  @Test
  void measure_computesPodsPerSecondFromWallTime() {
    List<SessionResult.Bind> binds = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      binds.add(new SessionResult.Bind("bench/p" + i, "n"));
    }
    SessionResult r =
        new SessionResult(
            "u",
            binds,
            List.of(),
            List.of(),
            Map.of(),
            Map.of(),
            Map.of(),
            List.of(),
            new SessionResult.SessionStats(50, 0, 0, 0));

    assertThat(BenchRunner.measure(1, 250.0, r).podsPerSecond()).isEqualTo(200.0);
  }
}
