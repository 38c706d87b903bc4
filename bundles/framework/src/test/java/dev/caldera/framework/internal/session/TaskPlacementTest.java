package dev.caldera.framework.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.placement.PodPlacement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A task's placement terms are parsed once per session, and every plugin reads that one copy. */
class TaskPlacementTest {

  private static final String CONF =
      """
      actions: probe
      tiers:
      - plugins: [{name: filters}, {name: scores}]
      """;

  @Test
  void twoPluginsReadTheSameParsedPlacement_newSessionParsesAgain() throws Exception {
    List<PodPlacement> seen = new ArrayList<>();
    SessionProbe probe =
        new SessionProbe()
            .plugin("filters", (s, x) -> seen.add(firstTask(s.jobs().get(0).tasks()).placement()))
            .plugin("scores", (s, x) -> seen.add(firstTask(s.jobs().get(0).tasks()).placement()))
            .node("n1", "8")
            .job("web", 1, "web-0");

    probe.run(CONF, ssn -> {});
    probe.run(CONF, ssn -> {});

    assertThat(seen).hasSize(4);
    assertThat(seen.get(1)).isSameAs(seen.get(0));
    assertThat(seen.get(3)).isSameAs(seen.get(2));
    assertThat(seen.get(2)).isNotSameAs(seen.get(0));
    assertThat(seen.get(0).pod().name()).isEqualTo("web-0");
  }

  private static TaskInfo firstTask(List<TaskInfo> tasks) {
    return tasks.get(0);
  }
}
