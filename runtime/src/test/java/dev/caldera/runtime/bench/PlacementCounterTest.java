package dev.caldera.runtime.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.framework.PluginRegistry;
import dev.caldera.framework.Scheduler;
import dev.caldera.framework.ServiceLoaderPluginRegistry;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.conf.SchedulerConf;
import org.junit.jupiter.api.Test;

class PlacementCounterTest {

  private static final String CONF =
      """
      actions: "enqueue, allocate, backfill"
      tiers:
      - plugins: [{name: priority}, {name: gang}, {name: conformance}]
      - plugins: [{name: drf}, {name: predicates}, {name: proportion}, {name: nodeorder}, {name: binpack}]
      """;

  private final PluginRegistry registry = new ServiceLoaderPluginRegistry();

  private SessionResult session(PluginRegistry r, SyntheticCluster cluster) throws Exception {
    return new Scheduler(r).runSession(cluster.snapshot(), SchedulerConf.parse(CONF, "test"));
  }

  @Test
  void countsEveryPlacedTask_withoutChangingTheDecisions() throws Exception {
    PlacementCounter counter = new PlacementCounter();

    SessionResult counted =
        session(counter.watching(registry, "priority"), SyntheticCluster.generate(20, 300, 3, 10));
    SessionResult plain = session(registry, SyntheticCluster.generate(20, 300, 3, 10));

    assertThat(counted.binds()).hasSize(300);
    assertThat(counter.placed()).isEqualTo(300);
    assertThat(counted.binds()).isEqualTo(plain.binds());
  }

  @Test
  void aGangRolledBack_countsDownAgain() throws Exception {
    PlacementCounter counter = new PlacementCounter();

    // One gang of 40 one-CPU pods on a single 32-CPU node: placed one by one, then discarded.
    SessionResult result =
        session(counter.watching(registry, "priority"), SyntheticCluster.generate(1, 40, 1, 40));

    assertThat(result.binds()).isEmpty();
    assertThat(counter.placed()).isZero();
  }

  @Test
  void reset_startsFromZero() throws Exception {
    PlacementCounter counter = new PlacementCounter();
    session(counter.watching(registry, "gang"), SyntheticCluster.generate(2, 20, 1, 10));
    assertThat(counter.placed()).isEqualTo(20);

    counter.reset();

    assertThat(counter.placed()).isZero();
  }
}
