package dev.caldera.framework.internal.actions;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * A dry-run eviction plan for one node: the victims that must go for the preemptor to fit there.
 *
 * @param victims most important first, as the reprieve found them
 */
record EvictionCandidate(NodeInfo node, List<TaskInfo> victims) {

  EvictionCandidate {
    victims = List.copyOf(victims);
  }

  /**
   * {@code pickOneNodeForEviction}: keeps the candidates with the best value of each criterion in
   * turn, until one is left: the lowest priority of the first victim; the lowest sum of (priority +
   * 2^31); the fewest victims; the latest start of the most important victims. Then the first
   * candidate. Priority is {@code spec.priority} (0 when unset); a pod's start is its creation
   * time, since the snapshot has no start time. Null when there are no candidates.
   */
  static EvictionCandidate best(List<EvictionCandidate> candidates) {
    List<ToLongFunction<EvictionCandidate>> criteria =
        List.of(
            EvictionCandidate::negatedHighestPriority,
            EvictionCandidate::negatedPrioritySum,
            c -> -c.victims.size(),
            EvictionCandidate::earliestStartOfMostImportant);
    List<EvictionCandidate> remaining = candidates;
    for (ToLongFunction<EvictionCandidate> criterion : criteria) {
      if (remaining.size() <= 1) {
        break;
      }
      List<EvictionCandidate> kept = new ArrayList<>();
      long max = Long.MIN_VALUE;
      for (EvictionCandidate c : remaining) {
        long score = criterion.applyAsLong(c);
        if (score > max) {
          max = score;
          kept.clear();
        }
        if (score == max) {
          kept.add(c);
        }
      }
      remaining = kept;
    }
    return remaining.isEmpty() ? null : remaining.get(0);
  }

  private long negatedHighestPriority() {
    return victims.isEmpty() ? 0 : -Preemption.podPriority(victims.get(0).pod());
  }

  private long negatedPrioritySum() {
    long sum = 0;
    for (TaskInfo t : victims) {
      sum += Preemption.podPriority(t.pod()) + (long) Integer.MAX_VALUE + 1;
    }
    return -sum;
  }

  /** Among the victims of the highest priority, the earliest start, in epoch nanoseconds. */
  private long earliestStartOfMostImportant() {
    if (victims.isEmpty()) {
      return Long.MAX_VALUE;
    }
    Instant earliest = start(victims.get(0));
    int maxPriority = Preemption.podPriority(victims.get(0).pod());
    for (TaskInfo t : victims) {
      int p = Preemption.podPriority(t.pod());
      if (p == maxPriority) {
        if (start(t).isBefore(earliest)) {
          earliest = start(t);
        }
      } else if (p > maxPriority) {
        maxPriority = p;
        earliest = start(t);
      }
    }
    return earliest.getEpochSecond() * 1_000_000_000L + earliest.getNano();
  }

  private static Instant start(TaskInfo t) {
    return t.creationTimestamp();
  }
}
