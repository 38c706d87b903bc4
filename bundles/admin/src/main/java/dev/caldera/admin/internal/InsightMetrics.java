package dev.caldera.admin.internal;

import dev.caldera.api.host.MetricsSource;
import dev.caldera.framework.loop.QueueInsight;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Metrics read from the loop's {@link QueueInsight} at each scrape: cards per model and per queue
 * (inventory, allocated, quota, a quota or a guarantee the inventory cannot meet), pending pod
 * groups per queue and blocker stage, and pod groups that can never fit. A family without samples
 * is left out. Besides these gauges, {@link #pendingTime()}: how long the waiting pod groups have
 * waited.
 */
final class InsightMetrics implements MetricsSource {

  private final QueueInsight insight;

  InsightMetrics(QueueInsight insight) {
    this.insight = insight;
  }

  /** The source for {@code insight}, none without a loop. */
  static List<MetricsSource> of(Optional<QueueInsight> insight) {
    return insight.<List<MetricsSource>>map(i -> List.of(new InsightMetrics(i))).orElse(List.of());
  }

  @Override
  public List<Family> metrics() {
    List<Sample> inventory = new ArrayList<>();
    List<Sample> allocated = new ArrayList<>();
    List<Sample> queueAllocated = new ArrayList<>();
    List<Sample> queueQuota = new ArrayList<>();
    List<Sample> overInventory = new ArrayList<>();
    for (QueueInsight.CardModel m : insight.cards()) {
      inventory.add(new Sample(List.of("card", m.card(), "kind", m.kind()), m.inventory()));
      allocated.add(new Sample(List.of("card", m.card(), "kind", m.kind()), m.allocated()));
      for (QueueInsight.QueueCards q : m.queues()) {
        List<String> labels = List.of("queue", q.queue(), "card", m.card());
        queueAllocated.add(new Sample(labels, q.allocated()));
        if (q.quota() >= 0) {
          queueQuota.add(new Sample(labels, q.quota()));
          overInventory.add(new Sample(labels, q.overInventory() ? 1 : 0));
        }
      }
    }
    Map<String, Double> cardInventory = new TreeMap<>();
    for (QueueInsight.NodeView n : insight.nodes()) {
      for (dev.caldera.api.info.CardUse c : n.cards()) {
        if (!c.resource().isEmpty()) {
          cardInventory.merge(c.resource(), c.capacity(), Double::sum);
        }
      }
    }
    List<Sample> guaranteeOver = new ArrayList<>();
    for (QueueInsight.QueueView q : insight.queues()) {
      cardInventory.forEach(
          (resource, has) -> {
            Double g = q.guarantee() == null ? null : q.guarantee().get(resource);
            if (g != null) {
              guaranteeOver.add(
                  new Sample(
                      List.of("queue", q.name(), "resource", resource), g > has + 1e-9 ? 1 : 0));
            }
          });
    }
    Map<List<String>, Double> byStage = new TreeMap<>(InsightMetrics::compare);
    for (QueueInsight.QueueView q : insight.queues()) {
      if (q.pending() == 0) {
        continue;
      }
      for (QueueInsight.Waiting w : insight.pending(q.name()).orElse(List.of())) {
        byStage.merge(
            List.of("queue", q.name(), "stage", w.blocker().stage().name()), 1.0, Double::sum);
      }
    }
    for (QueueInsight.Waiting w : insight.orphans()) {
      byStage.merge(
          List.of("queue", w.queue(), "stage", w.blocker().stage().name()), 1.0, Double::sum);
    }
    List<Sample> stages = new ArrayList<>();
    byStage.forEach((labels, n) -> stages.add(new Sample(labels, n)));
    Map<List<String>, Double> never = new TreeMap<>(InsightMetrics::compare);
    for (QueueInsight.NeverFits f : insight.neverFits()) {
      never.merge(List.of("queue", f.queue(), "card", f.card()), 1.0, Double::sum);
    }
    List<Sample> neverFits = new ArrayList<>();
    never.forEach((labels, n) -> neverFits.add(new Sample(labels, n)));

    List<Family> out = new ArrayList<>();
    add(out, "caldera_cards_inventory", "Cards of each model on the nodes.", inventory);
    add(out, "caldera_cards_allocated", "Cards of each model held by placed pods.", allocated);
    add(
        out,
        "caldera_queue_cards_allocated",
        "Cards of each model a queue's placed pods hold.",
        queueAllocated);
    add(out, "caldera_queue_cards_quota", "A queue's card quota per model.", queueQuota);
    add(
        out,
        "caldera_queue_card_quota_over_inventory",
        "1 where a queue's card quota for a model is more than the cluster's inventory of it.",
        overInventory);
    add(
        out,
        "caldera_queue_card_guarantee_over_inventory",
        "1 where a queue's guarantee of a card resource is more than the cards of it on the nodes.",
        guaranteeOver);
    add(
        out,
        "caldera_pending_podgroups",
        "Pod groups waiting after the last session, per queue and the stage that blocked them.",
        stages);
    add(
        out,
        "caldera_podgroups_never_fit",
        "Waiting pod groups that ask more cards of a model than their queue's quota or the"
            + " cluster's inventory.",
        neverFits);
    return out;
  }

  /** Bounds of the pending-time histogram, in seconds: those of the scheduling latency. */
  static final double[] PENDING_SECONDS = Metrics.LATENCY_SECONDS;

  /**
   * {@code caldera_queue_pending_seconds}, a gauge histogram per queue: how long each pod group
   * that waits after the last session has waited since its creation. Unlike the creation-to-bound
   * latency, observed only when a pod is bound, it shows the pod groups that have not been placed
   * (yet, or ever): it is recomputed at each scrape, so its buckets go down as pod groups leave the
   * line. Null when nothing waits.
   */
  HistogramSnapshot pendingTime() {
    Map<String, List<Double>> ages = insight.pendingSeconds();
    if (ages.isEmpty()) {
      return null;
    }
    HistogramSnapshot.Builder b =
        HistogramSnapshot.builder()
            .gaugeHistogram(true)
            .name("caldera_queue_pending_seconds")
            .help(
                "How long the pod groups waiting after the last session have waited since their"
                    + " creation, per queue.");
    ages.forEach(
        (queue, seconds) -> {
          double[] bounds = new double[PENDING_SECONDS.length + 1];
          long[] counts = new long[bounds.length];
          System.arraycopy(PENDING_SECONDS, 0, bounds, 0, PENDING_SECONDS.length);
          bounds[PENDING_SECONDS.length] = Double.POSITIVE_INFINITY;
          double sum = 0;
          for (double s : seconds) {
            int i = 0;
            while (s > bounds[i]) {
              i++;
            }
            counts[i]++;
            sum += s;
          }
          b.dataPoint(
              HistogramSnapshot.HistogramDataPointSnapshot.builder()
                  .labels(Labels.of("queue", queue))
                  .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, counts))
                  .sum(sum)
                  .build());
        });
    return b.build();
  }

  private static void add(List<Family> out, String name, String help, List<Sample> samples) {
    if (!samples.isEmpty()) {
      out.add(new Family(name, "gauge", help, samples));
    }
  }

  private static int compare(List<String> a, List<String> b) {
    return String.join("\u0000", a).compareTo(String.join("\u0000", b));
  }
}
