package dev.caldera.plugins.nodeorder;

import dev.caldera.api.PluginArguments;

/**
 * The {@code nodeorder} plugin's scorer weights, with Volcano's keys and defaults. A weight of 0
 * disables its scorer; negative weights are refused.
 *
 * @param leastRequested {@value #LEAST_REQUESTED}, default 1
 * @param mostRequested {@value #MOST_REQUESTED}, default 0
 * @param balancedResource {@value #BALANCED_RESOURCE}, default 1
 * @param nodeAffinity {@value #NODE_AFFINITY}, default 2
 * @param podAffinity {@value #POD_AFFINITY}, default 2
 * @param taintToleration {@value #TAINT_TOLERATION}, default 3
 * @param imageLocality {@value #IMAGE_LOCALITY}, default 1
 * @param podTopologySpread {@value #POD_TOPOLOGY_SPREAD}, default 2
 */
public record NodeOrderArguments(
    int leastRequested,
    int mostRequested,
    int balancedResource,
    int nodeAffinity,
    int podAffinity,
    int taintToleration,
    int imageLocality,
    int podTopologySpread) {

  public static final String LEAST_REQUESTED = "leastrequested.weight";
  public static final String MOST_REQUESTED = "mostrequested.weight";
  public static final String BALANCED_RESOURCE = "balancedresource.weight";
  public static final String NODE_AFFINITY = "nodeaffinity.weight";
  public static final String POD_AFFINITY = "podaffinity.weight";
  public static final String TAINT_TOLERATION = "tainttoleration.weight";
  public static final String IMAGE_LOCALITY = "imagelocality.weight";
  public static final String POD_TOPOLOGY_SPREAD = "podtopologyspread.weight";

  /** Volcano's defaults. */
  public static final NodeOrderArguments DEFAULTS = new NodeOrderArguments(1, 0, 1, 2, 2, 3, 1, 2);

  /**
   * Reads and validates the weights; unknown keys are ignored, as in Volcano.
   *
   * @throws dev.caldera.api.PluginArgumentException naming the first key that is not an integer or
   *     is negative
   */
  public static NodeOrderArguments from(PluginArguments args) {
    NodeOrderArguments d = DEFAULTS;
    return new NodeOrderArguments(
        weight(args, LEAST_REQUESTED, d.leastRequested),
        weight(args, MOST_REQUESTED, d.mostRequested),
        weight(args, BALANCED_RESOURCE, d.balancedResource),
        weight(args, NODE_AFFINITY, d.nodeAffinity),
        weight(args, POD_AFFINITY, d.podAffinity),
        weight(args, TAINT_TOLERATION, d.taintToleration),
        weight(args, IMAGE_LOCALITY, d.imageLocality),
        weight(args, POD_TOPOLOGY_SPREAD, d.podTopologySpread));
  }

  private static int weight(PluginArguments args, String key, int defaultValue) {
    int value = args.getInt(key, defaultValue);
    if (value < 0) {
      throw args.wrong(key, value, "a weight of 0 or more (0 disables the scorer)");
    }
    return value;
  }

  /** Whether any scorer of the batch node order function is enabled. */
  boolean anyBatchScorer() {
    return leastRequested != 0
        || mostRequested != 0
        || balancedResource != 0
        || nodeAffinity != 0
        || podAffinity != 0
        || taintToleration != 0
        || podTopologySpread != 0;
  }
}
