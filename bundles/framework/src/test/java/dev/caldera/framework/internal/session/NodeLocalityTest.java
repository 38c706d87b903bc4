package dev.caldera.framework.internal.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.NodeLocality;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.internal.actions.AllocateAction;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Allocate's incremental path through a real session: the same binds as the full scan with answers
 * reused, no reuse when a function declares no locality, and the check mode catching a locality
 * that lies.
 */
class NodeLocalityTest {

  private static String conf(String nodeScan) {
    return """
        actions: probe
        configurations:
        - name: allocate
          arguments: {nodeScan: %s}
        tiers:
        - plugins: [{name: fill}, {name: spread}]
        """
        .formatted(nodeScan);
  }

  /** Six nodes of different sizes and three gangs of four one-cpu tasks. */
  private static SessionProbe cluster() {
    SessionProbe probe = new SessionProbe();
    for (int i = 0; i < 6; i++) {
      probe.node("n" + i, String.valueOf(2 + i % 3));
    }
    for (int j = 0; j < 3; j++) {
      probe.job(
          "job-" + j,
          4,
          "job-" + j + "-a",
          "job-" + j + "-b",
          "job-" + j + "-c",
          "job-" + j + "-d");
    }
    return probe;
  }

  /**
   * "fill" scores a node by its used cpu (binpack-like) and rejects n5, declaring both node-local;
   * "spread" adds a small per-node preference, declared node-local unless {@code declareSpread} is
   * false.
   */
  private static SessionProbe withPlugins(SessionProbe probe, boolean declareSpread) {
    return probe
        .plugin(
            "fill",
            (s, x) -> {
              x.add(
                  ExtensionPoint.NODE_ORDER,
                  (t, n) -> n.used().milliCpu() / n.allocatable().milliCpu() * 10,
                  t -> t.resreq().valueKey());
              x.add(
                  ExtensionPoint.PREDICATE,
                  (t, n) -> n.name().equals("n5") ? Status.unschedulable("no") : Status.OK,
                  NodeLocality.TASK_INDEPENDENT);
            })
        .plugin(
            "spread",
            (s, x) -> {
              if (declareSpread) {
                x.add(
                    ExtensionPoint.NODE_ORDER,
                    (t, n) -> n.index() % 2,
                    NodeLocality.TASK_INDEPENDENT);
              } else {
                x.add(ExtensionPoint.NODE_ORDER, (t, n) -> n.index() % 2);
              }
            });
  }

  private static SessionResult allocate(SessionProbe probe, String nodeScan) throws Exception {
    return probe.run(conf(nodeScan), ssn -> new AllocateAction().execute(ssn));
  }

  private static List<String> binds(SessionResult result) {
    return result.binds().stream().map(b -> b.pod() + "@" + b.node()).toList();
  }

  @Test
  void incremental_bindsWhatTheFullScanBinds_reusingAnswers() throws Exception {
    SessionResult full = allocate(withPlugins(cluster(), true), "full");
    SessionResult incremental = allocate(withPlugins(cluster(), true), "incremental");

    assertThat(binds(full)).hasSize(12);
    assertThat(binds(incremental)).containsExactlyElementsOf(binds(full));
    assertThat(full.stats().nodesReused()).isZero();
    // The first task evaluates all six nodes; each later one only the nodes changed since (the
    // previous task's), and reuses the others.
    assertThat(incremental.stats().nodesReused()).isGreaterThanOrEqualTo(11 * 4);
    assertThat(incremental.stats().nodesFiltered()).isLessThan(full.stats().nodesFiltered());
  }

  @Test
  void aFunctionWithoutLocality_turnsReuseOff() throws Exception {
    SessionResult result = allocate(withPlugins(cluster(), false), "incremental");

    assertThat(binds(result)).hasSize(12);
    assertThat(result.stats().nodesReused()).isZero();
  }

  @Test
  void check_failsOnTheFirstDifference_whenALocalityLies() {
    // The score depends on how many tasks were allocated anywhere, not on the node alone, yet it
    // is declared node-local: reused answers go stale on the nodes that did not change.
    AtomicInteger allocated = new AtomicInteger();
    SessionProbe probe =
        cluster()
            .plugin(
                "fill",
                (s, x) -> {
                  allocated.set(0);
                  x.add(
                      ExtensionPoint.NODE_ORDER,
                      (t, n) -> n.index() == allocated.get() % 6 ? 10 : 0,
                      NodeLocality.TASK_INDEPENDENT);
                  x.add(
                      ExtensionPoint.EVENT_HANDLER,
                      new EventHandler() {
                        @Override
                        public Status allocated(TaskInfo task) {
                          allocated.incrementAndGet();
                          return Status.OK;
                        }
                      });
                })
            .plugin("spread", (s, x) -> {});

    assertThatThrownBy(() -> allocate(probe, "check"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("nodeScan=check")
        .hasMessageContaining("the incremental path chose node");
  }

  @Test
  void aWrongNodeScan_namesTheActionAndTheExpectedValues() {
    assertThatThrownBy(() -> allocate(withPlugins(cluster(), true), "sometimes"))
        .hasMessageContaining("allocate")
        .hasMessageContaining("nodeScan")
        .hasMessageContaining("full, incremental or check");
  }
}
