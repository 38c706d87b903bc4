package dev.caldera.framework.internal.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.info.Blocker;
import dev.caldera.api.info.CardUse;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.loop.QueueInsight;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CardTotalsTest {

  private static Blocker.Figure quota(
      String card, double requested, double allocated, double limit) {
    return new Blocker.Figure(card, requested, allocated, limit, "card quota");
  }

  private static SessionResult result(List<SessionResult.Waiting> waiting) {
    return new SessionResult(
        "s",
        List.of(),
        List.of(),
        List.of(),
        Map.of(),
        Map.of(),
        Map.of(),
        List.of(),
        null,
        waiting,
        Map.of(
            "train", List.of(quota("H100", 0, 5, 8), quota("L40S", 0, 0, 12)),
            "serve", List.of(quota("H100", 0, 1, 4))),
        Map.of(),
        Map.of(
            "n1",
                List.of(
                    new CardUse(
                        "H100",
                        "nvidia.com/gpu",
                        "whole",
                        8,
                        6,
                        Map.of("train", 5.0, "serve", 1.0))),
            "n2", List.of(new CardUse("L40S", "nvidia.com/gpu", "whole", 4, 0, Map.of()))));
  }

  private static SessionResult.Waiting waiting(String podGroup, String queue, Blocker.Figure f) {
    return new SessionResult.Waiting(
        podGroup,
        queue,
        1,
        "Pending",
        1,
        Map.of(),
        true,
        new Blocker(
            Blocker.Stage.CARD_QUOTA, "enqueue", "capacity-card", "m", List.of(f), Map.of()));
  }

  @Test
  void models_addUpTheNodesAndShowEachQueuesCardsAgainstItsQuota() {
    List<QueueInsight.CardModel> models = CardTotals.of(result(List.of())).models();

    assertThat(models).extracting(QueueInsight.CardModel::card).containsExactly("H100", "L40S");
    QueueInsight.CardModel h100 = models.get(0);
    assertThat(h100.inventory()).isEqualTo(8);
    assertThat(h100.allocated()).isEqualTo(6);
    assertThat(h100.free()).isEqualTo(2);
    assertThat(h100.queues())
        .containsExactly(
            new QueueInsight.QueueCards("serve", 1, 4, false),
            new QueueInsight.QueueCards("train", 5, 8, false));
    assertThat(models.get(1).queues())
        .as("a quota of 12 against 4 cards can never be met")
        .containsExactly(new QueueInsight.QueueCards("train", 0, 12, true));
  }

  @Test
  void neverFits_namesAPodGroupAboveItsQueuesQuota_orAboveTheInventory() {
    SessionResult r =
        result(
            List.of(
                waiting("ml/big", "train", quota("H100", 16, 5, 8)),
                waiting("ml/wide", "train", quota("L40S", 6, 0, 12)),
                waiting("ml/ok", "train", quota("H100", 4, 5, 8))));

    assertThat(CardTotals.of(r).neverFits(r.waiting()))
        .extracting(QueueInsight.NeverFits::message)
        .containsExactly(
            "ml/big asks 16 H100, more than queue train's card quota of 8",
            "ml/wide asks 6 L40S, more than the cluster's 4");
  }
}
