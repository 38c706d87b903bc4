package dev.caldera.plugins.capacitycard;

import dev.caldera.api.extension.Status;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.resource.Quantity;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One queue's quota and what counts against it, per card (by card id) and for CPU and memory:
 * allocated (placed tasks, each card charged to the model of its node), inqueue (the unplaced part
 * of admitted jobs' minimum) and elastic (placed beyond a job's minimum). A multi-model minimum
 * that is not yet placed is inqueue against its whole set of models.
 */
final class QueueAccount {

  final String name;
  final QueueInfo queue;
  final double[] quota;
  final double cpuQuota;
  final double memoryQuota;
  final List<String> problems;

  final double[] allocated;
  final double[] inqueue;
  final double[] elastic;
  final Map<CardSet, Double> inqueueMulti = new LinkedHashMap<>();

  /** The last "quota full" status per card, for the predicate. */
  final Full[] full;

  double cpuAllocated;
  double memoryAllocated;
  double cpuInqueue;
  double memoryInqueue;
  double cpuElastic;
  double memoryElastic;

  /**
   * A queue's account with its card quota ({@code ids} → counts, sized for {@code cards} ids) and
   * its CPU and memory capability (0 when not given).
   */
  QueueAccount(QueueInfo queue, double[] quota, List<String> problems) {
    this.name = queue.name();
    this.queue = queue;
    this.quota = quota;
    this.problems = List.copyOf(problems);
    Map<String, Quantity> capability = queue.queue().capability();
    Quantity cpu = capability == null ? null : capability.get("cpu");
    Quantity memory = capability == null ? null : capability.get("memory");
    this.cpuQuota = cpu == null ? 0 : cpu.milliValue();
    this.memoryQuota = memory == null ? 0 : memory.value();
    this.allocated = new double[quota.length];
    this.inqueue = new double[quota.length];
    this.elastic = new double[quota.length];
    this.full = new Full[quota.length];
  }

  /** A card's "quota full" status and the figures it was made for. */
  record Full(double allocated, double count, Status status) {}

  /** What is left of {@code card}'s quota for allocation. */
  double remaining(int card) {
    return quota[card] - allocated[card];
  }

  /** Σ quota over the set. */
  double quota(CardSet set) {
    double sum = 0;
    for (int c : set.ordered()) {
      sum += quota[c];
    }
    return sum;
  }

  /** Σ allocated over the set. */
  double allocated(CardSet set) {
    double sum = 0;
    for (int c : set.ordered()) {
      sum += allocated[c];
    }
    return sum;
  }

  /**
   * What counts against the set at enqueue: allocated + inqueue − elastic of its cards, plus the
   * unplaced multi-model minimums that must be served within the set.
   */
  double committed(CardSet set) {
    double sum = 0;
    for (int c : set.ordered()) {
      sum += allocated[c] + inqueue[c] - elastic[c];
    }
    for (Map.Entry<CardSet, Double> e : inqueueMulti.entrySet()) {
      if (e.getKey().within(set)) {
        sum += e.getValue();
      }
    }
    return sum;
  }

  /** Adds an admitted or unplaced minimum to inqueue. */
  void addInqueue(CardSet set, double count) {
    if (set.isSingle()) {
      inqueue[set.first()] += count;
    } else {
      inqueueMulti.merge(set, count, Double::sum);
    }
  }
}
