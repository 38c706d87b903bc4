package dev.caldera.framework.internal.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.framework.MapPluginRegistry;
import dev.caldera.framework.conf.SchedulerConf;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A conf whose eviction rules do not read is refused when it is loaded, not at each session. */
class ConfFileEvictionRulesTest {

  @Test
  void argumentProblems_includeABadEvictionBudget() throws Exception {
    SchedulerConf conf =
        SchedulerConf.parse(
            """
            actions: "enqueue, allocate, reclaim"
            tiers:
            - plugins: [{name: gang}]
            configurations:
            - {name: reclaim, arguments: {evictionBudget: lots}}
            """,
            "test.conf");
    assertThat(ConfFile.argumentProblems(conf, new MapPluginRegistry(Map.of(), Map.of()) {}))
        .containsExactly(
            "configurations reclaim evictionBudget: expected N/DURATION such as 3/1h, got"
                + " \"lots\"");
  }
}
