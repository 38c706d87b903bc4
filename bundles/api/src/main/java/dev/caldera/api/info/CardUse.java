package dev.caldera.api.info;

import java.util.Map;

/**
 * How one kind of card on one node is used: what the node has, what placed pods hold, and which
 * queues hold it. Reported by a plugin that knows cards (capacity-card) through {@link
 * dev.caldera.api.Session#reportNodeCards}; shown by {@code /api/nodes}, {@code caldera nodes} and
 * the console.
 *
 * @param card the card name used in quotas ({@code NVIDIA-H100-80GB-HBM3}, a MIG slice {@code
 *     NVIDIA-A100-SXM4-80GB/mig-1g.10gb-mixed}, an MPS slice {@code .../mps-80g*1/4})
 * @param resource the node resource that counts it ({@code nvidia.com/gpu}, {@code
 *     nvidia.com/mig-1g.10gb}, {@code nvidia.com/gpu.shared})
 * @param kind {@code whole}, {@code mig} or {@code mps}
 * @param capacity how many the node can give (its allocatable)
 * @param allocated how many the pods placed on it hold (running, bound or placed this session)
 * @param queues queue name → how many of them its pods hold, by name
 */
public record CardUse(
    String card,
    String resource,
    String kind,
    double capacity,
    double allocated,
    Map<String, Double> queues) {

  public CardUse {
    queues = queues == null ? Map.of() : Map.copyOf(queues);
  }

  /** What is left: capacity less allocated, never below zero. */
  public double free() {
    return Math.max(0, capacity - allocated);
  }
}
