package dev.caldera.framework.loop;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The figures behind {@code /metrics}. Counters count since the loop started; gauges hold the value
 * after the last session.
 *
 * @param pendingTasks queue → tasks pending after the last session
 * @param queueAllocated queue → resource → allocated amount (cores, bytes, units)
 * @param queueDeserved queue → resource → the queue's {@code spec.deserved}
 * @param queueCapability queue → resource → the queue's {@code spec.capability}
 * @param pluginLoads plugin → times a bundle providing it appeared
 * @param pluginUnloads plugin → times its provider went away
 * @param policyErrors policy file versions refused for errors since the loop started
 * @param policyFilesInError the policy files whose current text has errors, by name (the last good
 *     version of each, if any, stays in force)
 * @param heldPlugins while holding for missing plugins: those plugins, else empty
 * @param bundleErrors bundles refused or left unresolved: {@code Warning} events whose reason
 *     starts with {@code Bundle}, reported through {@link SchedulerMonitor#report}
 */
public record LoopMetrics(
    long sessions,
    Histogram sessionSeconds,
    long binds,
    long evictions,
    Map<String, Long> pendingTasks,
    Map<String, Map<String, Double>> queueAllocated,
    Map<String, Map<String, Double>> queueDeserved,
    Map<String, Map<String, Double>> queueCapability,
    Map<String, Long> pluginLoads,
    Map<String, Long> pluginUnloads,
    long policyErrors,
    List<String> policyFilesInError,
    long confReloads,
    long confRejections,
    boolean held,
    List<String> heldPlugins,
    long bundleErrors) {

  public LoopMetrics {
    pendingTasks = sorted(pendingTasks);
    queueAllocated = sortedNested(queueAllocated);
    queueDeserved = sortedNested(queueDeserved);
    queueCapability = sortedNested(queueCapability);
    pluginLoads = sorted(pluginLoads);
    pluginUnloads = sorted(pluginUnloads);
    heldPlugins = List.copyOf(heldPlugins);
    policyFilesInError = List.copyOf(policyFilesInError);
  }

  private static <V> Map<String, V> sorted(Map<String, V> m) {
    return Collections.unmodifiableMap(new TreeMap<>(m));
  }

  private static Map<String, Map<String, Double>> sortedNested(Map<String, Map<String, Double>> m) {
    Map<String, Map<String, Double>> out = new TreeMap<>();
    m.forEach((k, v) -> out.put(k, sorted(v)));
    return Collections.unmodifiableMap(out);
  }

  /**
   * A Prometheus histogram.
   *
   * @param bounds upper bounds of the buckets, ascending (without +Inf)
   * @param cumulativeCounts observations at most each bound, then the total for +Inf
   */
  public record Histogram(List<Double> bounds, List<Long> cumulativeCounts, double sum) {
    public Histogram {
      bounds = List.copyOf(bounds);
      cumulativeCounts = List.copyOf(cumulativeCounts);
    }

    /** How many observations there were. */
    public long count() {
      return cumulativeCounts.isEmpty() ? 0 : cumulativeCounts.get(cumulativeCounts.size() - 1);
    }
  }
}
