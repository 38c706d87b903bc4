package dev.caldera.admin.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.host.MetricsSource;
import dev.caldera.api.info.CardUse;
import dev.caldera.framework.loop.QueueInsight;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InsightMetricsTest {

  private static QueueInsight.QueueView queue(String name, Map<String, Double> guarantee) {
    return new QueueInsight.QueueView(
        name, "", 1, "Open", Map.of(), Map.of(), guarantee, Map.of(), Map.of(), 0, 0, List.of());
  }

  @Test
  void aGuaranteeOnACardResourceAboveTheCardsOfTheNodes_isOne_andOneWithinIsZero() {
    QueueInsight insight =
        new QueueInsight() {
          @Override
          public List<QueueView> queues() {
            return List.of(
                queue("training", Map.of("cpu", 10.0, "nvidia.com/gpu", 12.0)),
                queue("serving", Map.of("nvidia.com/gpu", 8.0)),
                queue("batch", Map.of("cpu", 4.0)));
          }

          @Override
          public List<NodeView> nodes() {
            CardUse h100 = new CardUse("NVIDIA-H100", "nvidia.com/gpu", "whole", 4, 0, Map.of());
            return List.of(
                new NodeView("gpu-1", Map.of(), List.of(h100)),
                new NodeView("gpu-2", Map.of(), List.of(h100)));
          }

          @Override
          public Optional<List<Waiting>> pending(String queue) {
            return Optional.empty();
          }

          @Override
          public Optional<JobView> job(String namespace, String name) {
            return Optional.empty();
          }

          @Override
          public List<Waiting> orphans() {
            return List.of();
          }

          @Override
          public Instant lastSession() {
            return null;
          }
        };

    MetricsSource.Family family =
        new InsightMetrics(insight)
            .metrics().stream()
                .filter(f -> f.name().equals("caldera_queue_card_guarantee_over_inventory"))
                .findFirst()
                .orElseThrow();

    assertThat(family.samples())
        .containsExactly(
            new MetricsSource.Sample(List.of("queue", "training", "resource", "nvidia.com/gpu"), 1),
            new MetricsSource.Sample(List.of("queue", "serving", "resource", "nvidia.com/gpu"), 0));
  }
}
