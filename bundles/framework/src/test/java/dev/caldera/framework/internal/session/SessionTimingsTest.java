package dev.caldera.framework.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.extension.Status;
import dev.caldera.framework.SessionResult;
import org.junit.jupiter.api.Test;

/**
 * The session's timings: each action; each plugin's per-node functions (one call in 64 timed,
 * counting for 64), open and close.
 */
class SessionTimingsTest {

  private static final String CONF =
      """
      actions: probe
      tiers:
      - plugins: [{name: slow}, {name: quick}]
      """;

  private static void spin(long nanos) {
    long end = System.nanoTime() + nanos;
    while (System.nanoTime() < end) {
      Thread.onSpinWait();
    }
  }

  @Test
  void actionsAndPluginFunctions_areTimedPerPlugin() throws Exception {
    // A sampled call counts for 64, so one time slice lost to another process while the quick
    // plugin's call is timed can make it look slow: the best of three sessions is compared.
    SessionResult r = timedSession();
    for (int attempt = 1; attempt < 3 && quickLooksSlow(r); attempt++) {
      r = timedSession();
    }
    SessionResult.SessionStats stats = r.stats();
    assertThat(stats.actionNanos()).containsOnlyKeys("probe");
    assertThat(stats.actionNanos().get("probe")).isGreaterThanOrEqualTo(32_000_000L);
    assertThat(stats.functionNanos())
        .containsKeys(
            "slow/onSessionOpen",
            "slow/predicate",
            "slow/nodeOrder",
            "slow/onSessionClose",
            "quick/predicate",
            "quick/onSessionOpen");
    assertThat(stats.functionNanos().get("slow/predicate"))
        .isGreaterThanOrEqualTo(10 * 64 * 50_000L);
    assertThat(stats.functionNanos().get("slow/onSessionOpen")).isGreaterThanOrEqualTo(2_000_000L);
    assertThat(stats.functionNanos().get("quick/predicate"))
        .isLessThan(stats.functionNanos().get("slow/predicate") / 4);
  }

  private static boolean quickLooksSlow(SessionResult r) {
    var nanos = r.stats().functionNanos();
    return nanos.getOrDefault("quick/predicate", 0L)
        >= nanos.getOrDefault("slow/predicate", 0L) / 4;
  }

  private static SessionResult timedSession() throws Exception {
    return new SessionProbe()
        .node("n1", "4")
        .node("n2", "4")
        .job("p", 1, "p-1")
        .plugin(
            "slow",
            (s, x) -> {
              spin(2_000_000);
              x.add(
                  ExtensionPoint.PREDICATE,
                  (t, n) -> {
                    spin(50_000);
                    return Status.OK;
                  });
              x.add(ExtensionPoint.NODE_ORDER, (t, n) -> 1);
            })
        .plugin("quick", (s, x) -> x.add(ExtensionPoint.PREDICATE, (t, n) -> Status.OK))
        .run(
            CONF,
            ssn -> {
              var task = ssn.job("ns/p").tasks().get(0);
              // 640 calls, one in 64 timed: 10 timed calls of 50 us, each counting for 64.
              for (int i = 0; i < 320; i++) {
                ssn.predicate(task, ssn.node("n1"));
                ssn.predicate(task, ssn.node("n2"));
              }
              ssn.scoreNodes(task, ssn.nodes());
            });
  }
}
