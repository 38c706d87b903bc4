package dev.caldera.framework.internal.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.PodGroup;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.internal.loop.LoopFixtures.OnePodCluster;
import dev.caldera.framework.loop.Health;
import dev.caldera.framework.loop.LoopMetrics;
import dev.caldera.framework.loop.SessionRecord;
import dev.caldera.testkit.PodBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LoopPartsTest {

  @Test
  void registryWatch_warnsOnceForEachNewRefusal() {
    RegistryWatch watch = new RegistryWatch();
    String refusal = "plugin gang: b 1.0.0 refused, a 1.0.0 provides it (...)";

    assertThat(watch.refused(List.of(refusal)))
        .extracting(e -> e.reason() + ": " + e.message())
        .containsExactly("PluginRefused: " + refusal);
    assertThat(watch.refused(List.of(refusal))).isEmpty();
    assertThat(watch.refused(List.of())).isEmpty();
    assertThat(watch.refused(List.of(refusal))).hasSize(1);
  }

  @Test
  void histogram_countsCumulativelyWithATotalBucket() {
    Histogram h = new Histogram(0.01, 0.1, 1);
    h.observe(0.005);
    h.observe(0.05);
    h.observe(0.05);
    h.observe(5);

    LoopMetrics.Histogram s = h.snapshot();

    assertThat(s.bounds()).containsExactly(0.01, 0.1, 1.0);
    assertThat(s.cumulativeCounts()).containsExactly(1L, 3L, 3L, 4L);
    assertThat(s.count()).isEqualTo(4);
    assertThat(s.sum()).isEqualTo(5.105, org.assertj.core.data.Offset.offset(1e-9));
  }

  @Test
  void queueFigures_countPendingTasksNotBoundThisSession() {
    OnePodCluster cluster = new OnePodCluster();
    SessionResult none =
        new SessionResult(
            "u", List.of(), List.of(), List.of(), Map.of(), Map.of(), Map.of(), List.of(), null);
    SessionResult bound =
        new SessionResult(
            "u",
            List.of(new SessionResult.Bind("ns/p1", "n1")),
            List.of(),
            List.of(),
            Map.of(),
            Map.of(),
            Map.of(),
            List.of(),
            null);

    assertThat(QueueFigures.of(cluster.snapshot(), none).pending())
        .containsExactly(Map.entry("default", 1L));
    assertThat(QueueFigures.of(cluster.snapshot(), bound).pending())
        .containsExactly(Map.entry("default", 0L));
  }

  @Test
  void statusLine_namesCountsPendingAndTheHoldReason() {
    LoopMetrics m =
        new LoopMetrics(
            42,
            new Histogram(1).snapshot(),
            17,
            1,
            Map.of("training", 4L, "inference", 0L),
            Map.of(),
            Map.of(),
            Map.of(),
            Map.of(),
            Map.of(),
            0,
            List.of(),
            1,
            0,
            true,
            List.of("capacity"),
            0);
    Health h =
        new Health(
            "holding", List.of("plugin \"capacity\" is not loaded"), List.of("capacity"), 42, null);

    assertThat(Lines.status(h, m, 5))
        .isEqualTo(
            "status: sessions 42 (+5), binds 17, evictions 1, pending inference=0 training=4,"
                + " HOLDING: plugin \"capacity\" is not loaded");
  }

  @Test
  void bindsWithWaits_namesTheBoundPodsGroupQueueAndItsWait() {
    Instant now = Instant.parse("2026-11-28T12:00:10Z");
    ClusterSnapshot snapshot =
        new ClusterSnapshot(
            List.of(),
            List.of(
                PodBuilder.pod("a/train-0")
                    .annotation("scheduling.k8s.io/group-name", "train")
                    .created(now.minusSeconds(4))
                    .build(),
                // Same group name in another namespace, and a pod already bound: not this bind's.
                PodBuilder.pod("b/train-0")
                    .annotation("scheduling.k8s.io/group-name", "train")
                    .created(now.minusSeconds(9))
                    .build(),
                PodBuilder.pod("a/old-0")
                    .annotation("scheduling.k8s.io/group-name", "old")
                    .specNodeName("n2")
                    .build()),
            List.of(
                new PodGroup(ObjectMeta.named("a", "train"), "gpu", 1, null, null, null, "", null),
                new PodGroup(ObjectMeta.named("b", "train"), "cpu", 1, null, null, null, "", null),
                new PodGroup(ObjectMeta.named("a", "old"), "cpu", 1, null, null, null, "", null)),
            List.of(),
            null,
            now);
    SessionResult result =
        new SessionResult(
            "u",
            List.of(new SessionResult.Bind("a/train-0", "n1")),
            List.of(),
            List.of(),
            Map.of(),
            Map.of(),
            Map.of(),
            List.of(),
            null);

    List<SessionRecord.Bind> binds = SchedulingLoop.bindsWithWaits(snapshot, result, now);

    assertThat(binds).hasSize(1);
    assertThat(binds.get(0).queue()).isEqualTo("gpu");
    assertThat(binds.get(0).waitedSeconds()).isEqualTo(4.0);
  }
}
