package dev.caldera.framework.internal.loop;

import dev.caldera.api.info.PodFacts;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.Queue;
import dev.caldera.api.resource.Quantity;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.SessionResult;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Per-queue figures after a session: pending tasks, and allocated, deserved and capability per
 * resource (cores for cpu, bytes for memory, units otherwise).
 */
record QueueFigures(
    Map<String, Long> pending,
    Map<String, Map<String, Double>> allocated,
    Map<String, Map<String, Double>> deserved,
    Map<String, Map<String, Double>> capability) {

  private static final String DEFAULT_QUEUE = "default";

  /** The figures of {@code snapshot} once {@code result} is applied. */
  static QueueFigures of(ClusterSnapshot snapshot, SessionResult result) {
    // Built at the first pending pod: a session after which no pod waits needs no queue of a group.
    Map<String, String> queueOfGroup = null;
    Set<String> bound = new HashSet<>();
    result.binds().forEach(b -> bound.add(b.pod()));
    result.evictions().forEach(e -> bound.add(e.pod()));
    Map<String, Long> pending = new TreeMap<>();
    for (Queue q : snapshot.queues()) {
      pending.put(q.name(), 0L);
    }
    for (Pod p : snapshot.pods()) {
      // Most pods of a large cluster are placed: the cheapest test first.
      if (!p.nodeName().isEmpty() || !p.phase().equals("Pending")) {
        continue;
      }
      String group = p.metadata().annotations().get(PodFacts.GROUP_NAME);
      if (group == null || bound.contains(p.key())) {
        continue;
      }
      if (queueOfGroup == null) {
        queueOfGroup = queueOfGroups(snapshot);
      }
      String queue = queueOfGroup.get(p.namespace() + "/" + group);
      if (queue != null && pending.containsKey(queue)) {
        pending.merge(queue, 1L, Long::sum);
      }
    }
    Map<String, Map<String, Double>> allocated = new TreeMap<>();
    Map<String, Map<String, Double>> deserved = new TreeMap<>();
    Map<String, Map<String, Double>> capability = new TreeMap<>();
    for (Queue q : snapshot.queues()) {
      Map<String, Quantity> alloc =
          result.queueAllocated() == null ? null : result.queueAllocated().get(q.name());
      allocated.put(q.name(), amounts(alloc == null ? q.allocated() : alloc));
      if (q.deserved() != null) {
        deserved.put(q.name(), amounts(q.deserved()));
      }
      if (q.capability() != null) {
        capability.put(q.name(), amounts(q.capability()));
      }
    }
    return new QueueFigures(pending, allocated, deserved, capability);
  }

  private static Map<String, String> queueOfGroups(ClusterSnapshot snapshot) {
    Map<String, String> queueOfGroup = new HashMap<>();
    for (PodGroup pg : snapshot.podGroups()) {
      queueOfGroup.put(pg.key(), pg.queue().isEmpty() ? DEFAULT_QUEUE : pg.queue());
    }
    return queueOfGroup;
  }

  /** No queue known yet. */
  static QueueFigures empty() {
    return new QueueFigures(Map.of(), Map.of(), Map.of(), Map.of());
  }

  private static Map<String, Double> amounts(Map<String, Quantity> quantities) {
    Map<String, Double> out = new TreeMap<>();
    quantities.forEach((name, q) -> out.put(name, q.amount().doubleValue()));
    return out;
  }
}
