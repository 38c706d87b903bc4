package dev.caldera.framework.internal.loop;

import static dev.caldera.testkit.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.info.Blocker;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodCondition;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.SessionResult;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WaitingBoardTest {

  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void job_ofAMissingPodGroupThatPendingPodsName_isAnsweredWithItsBlockerAndPods() {
    Pod ghost = pod("ns/ghost-1").annotation("scheduling.k8s.io/group-name", "ghost").build();
    Blocker missing =
        Blocker.of(Blocker.Stage.PODGROUP_MISSING, "pod group ns/ghost does not exist: ...");
    SessionResult result =
        new SessionResult(
            "s",
            List.of(),
            List.of(),
            List.of(),
            Map.of(),
            Map.of(),
            Map.of(
                "ns/ghost-1",
                new SessionResult.PodStatusUpdate(
                    new PodCondition("PodScheduled", "False", "Unschedulable", missing.message()),
                    null)),
            List.of(),
            null,
            List.of(
                new SessionResult.Waiting(
                    "ns/ghost", "default", 0, "", 0, Map.of(), false, missing)));
    WaitingBoard board = new WaitingBoard();
    board.update(
        new ClusterSnapshot(List.of(), List.of(ghost), List.of(), List.of(), null, NOW),
        result,
        null,
        NOW);

    var job = board.job("ns", "ghost").orElseThrow();

    assertThat(job.queue()).isEqualTo("default");
    assertThat(job.waiting().blocker()).isEqualTo(missing);
    assertThat(job.tasks())
        .singleElement()
        .satisfies(t -> assertThat(t.reason()).isEqualTo(missing.message()));
    assertThat(board.orphans()).extracting(w -> w.podGroup()).containsExactly("ns/ghost");
    assertThat(board.job("ns", "nobody")).isEmpty();
  }
}
