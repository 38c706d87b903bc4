package dev.caldera.plugins.capacitycard;

import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.resource.ResourceView;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A job's minimum as the enqueue check counts it: the cards its pods name (summed per card or set
 * of alternatives), or, before any pod names one, its {@value CardAnnotations#REQUEST}; and the CPU
 * and memory of {@code spec.minResources} unless the job uses cards and the plugin exempts card
 * jobs.
 *
 * @param cards card set → cards, in the order first seen
 * @param cpu milli-cpu
 * @param memory bytes
 */
record JobDemand(Map<CardSet, Double> cards, double cpu, double memory) {

  /**
   * Reads a job's minimum.
   *
   * @param request the job's parsed {@value CardAnnotations#REQUEST}
   * @param demands the demand of each task
   */
  static JobDemand of(
      JobInfo job,
      CardAnnotations.Counts request,
      Function<TaskInfo, Demand> demands,
      CardCatalog catalog,
      boolean cardUnlimitedCpuMemory) {
    Map<CardSet, Double> cards = new LinkedHashMap<>();
    boolean usesCards = false;
    for (TaskInfo t : job.tasks()) {
      // A pod being deleted (a replica an HPA scaled down) never needs its cards again: its job
      // reserves nothing for it at enqueue, so the quota returns as the pod goes (seed 001).
      if (t.status().isCompleted() || t.pod().metadata().deletionTimestamp() != null) {
        continue;
      }
      Demand d = demands.apply(t);
      usesCards |= d.usesCards();
      if (d.cards() != null) {
        cards.merge(d.cards(), d.count(), Double::sum);
      }
    }
    if (cards.isEmpty()) {
      for (Map.Entry<String, Long> e : request.counts().entrySet()) {
        if (e.getValue() > 0) {
          cards.merge(setOf(e.getKey(), catalog), e.getValue().doubleValue(), Double::sum);
        }
      }
    }
    ResourceView min = job.minResources();
    usesCards |= !cards.isEmpty();
    if (min != null && !usesCards) {
      for (int r : min.scalarIndices()) {
        usesCards |= catalog.isCardResource(r) && min.get(r) > 0;
      }
    }
    boolean exempt = cardUnlimitedCpuMemory && usesCards;
    double cpu = min == null || exempt ? 0 : min.milliCpu();
    double memory = min == null || exempt ? 0 : min.memory();
    return new JobDemand(cards, cpu, memory);
  }

  /** The set of cards {@code A|B|…} names (known to the catalog after registration). */
  static CardSet setOf(String key, CardCatalog catalog) {
    List<String> names = CardAnnotations.names(key).names();
    int[] ids = new int[names.size()];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = catalog.idOrAdd(names.get(i));
    }
    return new CardSet(ids, key);
  }
}
