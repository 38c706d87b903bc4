package dev.caldera.plugins.predicates;

import dev.caldera.api.PluginArguments;
import java.util.List;
import java.util.Map;

/**
 * The {@code predicates} plugin's arguments, with Volcano's keys and defaults. Dynamic resource
 * allocation is accepted but has nothing to check in a model without resource claims.
 *
 * @param nodeAffinity {@value #NODE_AFFINITY}, default true
 * @param nodePorts {@value #NODE_PORTS}, default true
 * @param taintToleration {@value #TAINT_TOLERATION}, default true
 * @param podAffinity {@value #POD_AFFINITY}, default true
 * @param nodeVolumeLimits {@value #NODE_VOLUME_LIMITS}, default true
 * @param volumeZone {@value #VOLUME_ZONE}, default true
 * @param podTopologySpread {@value #POD_TOPOLOGY_SPREAD}, default true
 * @param volumeBinding {@value #VOLUME_BINDING}, default true
 * @param dynamicResourceAllocation {@value #DYNAMIC_RESOURCE_ALLOCATION}, default false
 * @param cache {@value #CACHE}, default false: cache the stable filters per node and pod template
 * @param volumeBindingWeight {@value #VOLUME_BINDING_WEIGHT}, default 1
 * @param volumeBindingTimeoutSeconds {@value #VOLUME_BINDING_TIMEOUT}, default 600, not negative
 * @param draFilterTimeoutSeconds {@value #DRA_FILTER_TIMEOUT}, default 10, not negative
 */
public record PredicatesArguments(
    boolean nodeAffinity,
    boolean nodePorts,
    boolean taintToleration,
    boolean podAffinity,
    boolean nodeVolumeLimits,
    boolean volumeZone,
    boolean podTopologySpread,
    boolean volumeBinding,
    boolean dynamicResourceAllocation,
    boolean cache,
    int volumeBindingWeight,
    int volumeBindingTimeoutSeconds,
    int draFilterTimeoutSeconds) {

  public static final String NODE_AFFINITY = "predicate.NodeAffinityEnable";
  public static final String NODE_PORTS = "predicate.NodePortsEnable";
  public static final String TAINT_TOLERATION = "predicate.TaintTolerationEnable";
  public static final String POD_AFFINITY = "predicate.PodAffinityEnable";
  public static final String NODE_VOLUME_LIMITS = "predicate.NodeVolumeLimitsEnable";
  public static final String VOLUME_ZONE = "predicate.VolumeZoneEnable";
  public static final String POD_TOPOLOGY_SPREAD = "predicate.PodTopologySpreadEnable";
  public static final String VOLUME_BINDING = "predicate.VolumeBindingEnable";
  public static final String DYNAMIC_RESOURCE_ALLOCATION =
      "predicate.DynamicResourceAllocationEnable";
  public static final String CACHE = "predicate.CacheEnable";
  public static final String VOLUME_BINDING_WEIGHT = "volumebinding.weight";
  public static final String VOLUME_BINDING_TIMEOUT = "volumebinding.bindTimeoutSeconds";
  public static final String VOLUME_BINDING_SHAPE = "volumebinding.shape";
  public static final String DRA_FILTER_TIMEOUT = "dynamicresources.filterTimeoutSeconds";

  /** Volcano's defaults. */
  public static final PredicatesArguments DEFAULTS =
      new PredicatesArguments(
          true, true, true, true, true, true, true, true, false, false, 1, 600, 10);

  /**
   * Reads and validates the arguments; unknown keys are ignored, as in Volcano.
   *
   * @throws dev.caldera.api.PluginArgumentException naming the first bad key
   */
  public static PredicatesArguments from(PluginArguments args) {
    PredicatesArguments d = DEFAULTS;
    int timeout = args.getInt(VOLUME_BINDING_TIMEOUT, d.volumeBindingTimeoutSeconds);
    if (timeout < 0) {
      throw args.wrong(VOLUME_BINDING_TIMEOUT, timeout, "a number of seconds, not negative");
    }
    int draTimeout = args.getInt(DRA_FILTER_TIMEOUT, d.draFilterTimeoutSeconds);
    if (draTimeout < 0) {
      throw args.wrong(DRA_FILTER_TIMEOUT, draTimeout, "a number of seconds, not negative");
    }
    checkShape(args);
    return new PredicatesArguments(
        args.getBoolean(NODE_AFFINITY, d.nodeAffinity),
        args.getBoolean(NODE_PORTS, d.nodePorts),
        args.getBoolean(TAINT_TOLERATION, d.taintToleration),
        args.getBoolean(POD_AFFINITY, d.podAffinity),
        args.getBoolean(NODE_VOLUME_LIMITS, d.nodeVolumeLimits),
        args.getBoolean(VOLUME_ZONE, d.volumeZone),
        args.getBoolean(POD_TOPOLOGY_SPREAD, d.podTopologySpread),
        args.getBoolean(VOLUME_BINDING, d.volumeBinding),
        args.getBoolean(DYNAMIC_RESOURCE_ALLOCATION, d.dynamicResourceAllocation),
        args.getBoolean(CACHE, d.cache),
        args.getInt(VOLUME_BINDING_WEIGHT, d.volumeBindingWeight),
        timeout,
        draTimeout);
  }

  /** The volume binding shape is a list of {@code {utilization, score}} points. */
  private static void checkShape(PluginArguments args) {
    Object shape = args.values().get(VOLUME_BINDING_SHAPE);
    if (shape == null) {
      return;
    }
    String expected = "a list of {utilization: 0..100, score: 0..10} points";
    if (!(shape instanceof List<?> points)) {
      throw args.wrong(VOLUME_BINDING_SHAPE, shape, expected);
    }
    for (Object point : points) {
      if (!(point instanceof Map<?, ?> m)
          || !inRange(m.get("utilization"), 100)
          || !inRange(m.get("score"), 10)) {
        throw args.wrong(VOLUME_BINDING_SHAPE, shape, expected);
      }
    }
  }

  private static boolean inRange(Object v, int max) {
    return (v instanceof Integer || v instanceof Long)
        && ((Number) v).longValue() >= 0
        && ((Number) v).longValue() <= max;
  }
}
