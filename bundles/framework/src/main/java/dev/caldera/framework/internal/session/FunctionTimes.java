package dev.caldera.framework.internal.session;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Time spent in each plugin's functions during one session, keyed {@code plugin/point} (e.g. {@code
 * predicates/predicate}, {@code gang/onSessionOpen}); for the per-function latency metrics. Adders,
 * since node scoring runs on several threads.
 */
final class FunctionTimes {

  private final Map<String, LongAdder> nanos = new ConcurrentHashMap<>();

  /** The adder of one plugin's function at one point. */
  LongAdder clock(String plugin, String point) {
    return nanos.computeIfAbsent(plugin + "/" + point, k -> new LongAdder());
  }

  /** Nanoseconds per {@code plugin/point}, in key order. */
  Map<String, Long> snapshot() {
    Map<String, Long> out = new TreeMap<>();
    nanos.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }
}
