package dev.caldera.framework.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.support.resource.Resource;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The session's views hand out resources no plugin can cast back to change the session. */
class ReadOnlyViewsTest {

  private static final String CONF =
      """
      actions: probe
      tiers:
      - plugins: [{name: a}]
      """;

  @Test
  void everyResourceOfTheViewsIsReadOnly() throws Exception {
    List<ResourceView> seen = new ArrayList<>();
    new SessionProbe()
        .node("n1", "8")
        .job("running", 1, "r-1@n1")
        .plugin("a", (s, x) -> {})
        .run(
            CONF,
            ssn -> {
              seen.add(ssn.totalResource());
              for (NodeInfo n : ssn.nodes()) {
                seen.addAll(
                    List.of(
                        n.allocatable(),
                        n.capacity(),
                        n.idle(),
                        n.used(),
                        n.releasing(),
                        n.pipelined()));
              }
              for (JobInfo j : ssn.jobs()) {
                seen.addAll(List.of(j.allocated(), j.totalRequest()));
                for (TaskInfo t : j.tasks()) {
                  seen.addAll(List.of(t.resreq(), t.initResreq()));
                }
              }
            });

    assertThat(seen).hasSize(11).noneMatch(r -> r instanceof Resource);
    assertThat(seen.get(3).milliCpu()).isEqualTo(7000);
  }
}
