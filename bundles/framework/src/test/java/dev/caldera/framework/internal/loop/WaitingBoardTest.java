package dev.caldera.framework.internal.loop;

import static dev.caldera.testkit.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.info.Blocker;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodCondition;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.resource.Quantity;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.loop.QueueInsight;
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

  @Test
  void pendingSeconds_givesEachWaitingPodGroupsAgePerQueue_leavingOutOnesWithoutACreationTime() {
    PodGroup old = group("old", "q-batch", NOW.minusSeconds(90));
    PodGroup young = group("young", "q-batch", NOW.minusMillis(2500));
    PodGroup online = group("web", "q-online", NOW.minusSeconds(4));
    PodGroup ageless = group("ageless", "q-online", null);
    PodGroup running = group("done", "q-online", NOW.minusSeconds(600));
    SessionResult result =
        new SessionResult(
            "s",
            List.of(),
            List.of(),
            List.of(),
            Map.of(),
            Map.of(),
            Map.of(),
            List.of(),
            null,
            List.of(
                waiting("ai/old", "q-batch"),
                waiting("ai/young", "q-batch"),
                waiting("ai/web", "q-online"),
                waiting("ai/ageless", "q-online")));
    WaitingBoard board = new WaitingBoard();
    assertThat(board.pendingSeconds()).isEmpty();

    board.update(
        new ClusterSnapshot(
            List.of(),
            List.of(),
            List.of(old, young, online, ageless, running),
            List.of(),
            null,
            NOW),
        result,
        null,
        NOW);

    assertThat(board.pendingSeconds())
        .containsOnlyKeys("q-batch", "q-online")
        .containsEntry("q-batch", List.of(90.0, 2.5))
        .containsEntry("q-online", List.of(4.0));
  }

  private static PodGroup group(String name, String queue, Instant created) {
    return new PodGroup(
        new ObjectMeta(name, "ai", null, created, null, null, null, null),
        queue,
        1,
        null,
        null,
        null,
        "Pending",
        null);
  }

  private static SessionResult.Waiting waiting(String podGroup, String queue) {
    return new SessionResult.Waiting(
        podGroup,
        queue,
        1,
        "Pending",
        1,
        Map.of(),
        true,
        Blocker.of(Blocker.Stage.ENQUEUE, "its minimum does not fit"));
  }

  @Test
  void job_listsTheEvictionsItSufferedAndCaused_withTheirRule() {
    PodGroup train =
        new PodGroup(
            ObjectMeta.named("ai", "train"), "q-batch", 1, null, null, null, "Running", null);
    PodGroup db =
        new PodGroup(
            ObjectMeta.named("ai", "db"), "q-online", 1, null, null, null, "Inqueue", null);
    SessionResult.Eviction eviction =
        new SessionResult.Eviction(
            "ai/train-1",
            "reclaim",
            "ai/db-0",
            "ai/train",
            "q-batch",
            "gpu-1",
            "ai/db",
            "q-online",
            Map.of("nvidia.com/gpu", Quantity.parse("4")),
            "tidal.policy:18 (any may reclaim training)");
    SessionResult result =
        new SessionResult(
            "s",
            List.of(),
            List.of(eviction),
            List.of(),
            Map.of(),
            Map.of(),
            Map.of(),
            List.of(),
            null);
    WaitingBoard board = new WaitingBoard();
    board.update(
        new ClusterSnapshot(List.of(), List.of(), List.of(train, db), List.of(), null, NOW),
        result,
        null,
        NOW);

    String sentence =
        "reclaim evicted ai/train-1 from queue q-batch on gpu-1 for ai/db-0 (queue q-online),"
            + " freeing nvidia.com/gpu 4; rule tidal.policy:18 (any may reclaim training)";
    assertThat(board.job("ai", "train").orElseThrow().evictions())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.message()).isEqualTo(sentence);
              assertThat(e.rule()).isEqualTo("tidal.policy:18 (any may reclaim training)");
              assertThat(e.freed()).containsEntry("nvidia.com/gpu", "4");
              assertThat(e.time()).isEqualTo(NOW);
            });
    assertThat(board.job("ai", "db").orElseThrow().evictions())
        .extracting(QueueInsight.Eviction::forPod)
        .containsExactly("ai/db-0");
    assertThat(board.evictions(10))
        .extracting(QueueInsight.Eviction::pod)
        .containsExactly("ai/train-1");
    assertThat(board.evictions(0)).isEmpty();
  }

  @Test
  void job_saysTheCapacityTheLastSessionHoldsForIt() {
    PodGroup svc =
        new PodGroup(
            ObjectMeta.named("inference", "svc-7"),
            "serving",
            1,
            null,
            null,
            null,
            "Inqueue",
            null);
    String held =
        "holding 2 NVIDIA-H100 on node-3 for inference/svc-7 (freed by evictions for it) until it"
            + " binds, or for 2 more sessions";
    SessionResult result =
        new SessionResult(
            "s",
            List.of(),
            List.of(),
            List.of(),
            Map.of(),
            Map.of(),
            Map.of(),
            List.of(
                new SessionResult.Event(
                    "PodGroup", "inference/svc-7", "Normal", "CapacityHeld", held),
                new SessionResult.Event(
                    "PodGroup", "inference/other", "Normal", "CapacityHeld", "holding ...")),
            null);
    WaitingBoard board = new WaitingBoard();
    board.update(
        new ClusterSnapshot(List.of(), List.of(), List.of(svc), List.of(), null, NOW),
        result,
        null,
        NOW);

    assertThat(board.job("inference", "svc-7").orElseThrow().holding()).containsExactly(held);
  }

  @Test
  void history_aBlockerWhoseNumbersOnlyMoved_isNoNewEntry_butShowsTheLatestNumbers() {
    WaitingBoard board = new WaitingBoard();
    PodGroup pg =
        new PodGroup(ObjectMeta.named("ml", "t"), "q", 1, null, null, null, "Pending", null);
    String[] messages = {
      "Queue <q> has insufficient <A> quota: requested <16>, total would be <22>, but capability is <8>",
      "Queue <q> has insufficient <A> quota: requested <16>, total would be <24>, but capability is <8>",
      "queue q is closed"
    };
    for (int i = 0; i < messages.length; i++) {
      Blocker b =
          Blocker.of(i < 2 ? Blocker.Stage.CARD_QUOTA : Blocker.Stage.QUEUE_CLOSED, messages[i]);
      board.update(
          new ClusterSnapshot(List.of(), List.of(), List.of(pg), List.of(), null, NOW),
          new SessionResult(
              "s" + i,
              List.of(),
              List.of(),
              List.of(),
              Map.of(),
              Map.of(),
              Map.of(),
              List.of(),
              null,
              List.of(new SessionResult.Waiting("ml/t", "q", 1, "Pending", 1, Map.of(), true, b))),
          null,
          NOW.plusSeconds(i));
    }

    var history = board.job("ml", "t").orElseThrow().history();
    assertThat(history).hasSize(2);
    assertThat(history.get(0).blocker().message()).isEqualTo(messages[1]);
    assertThat(history.get(0).since()).isEqualTo(NOW);
    assertThat(history.get(0).until()).isEqualTo(NOW.plusSeconds(1));
  }
}
