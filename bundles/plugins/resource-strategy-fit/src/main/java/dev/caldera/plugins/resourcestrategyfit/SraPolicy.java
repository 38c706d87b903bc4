package dev.caldera.plugins.resourcestrategyfit;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.resource.ResourceNames;
import dev.caldera.api.resource.ResourceView;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The {@code sra} sub-policy (scarce resource avoidance): nodes that offer fewer of the listed
 * scarce resources score higher, so that tasks which do not need them stay off the nodes that have
 * them.
 *
 * @param weight {@code sra.weight}; the part is scored only when it is above 0. Volcano takes the
 *     value as given, so an enabled policy without a weight scores nothing.
 * @param resources the resources listed in {@code sra.resources} (comma-separated) with their
 *     {@code sra.resourceWeight} (default 1; a negative weight becomes 1), in the order listed
 */
record SraPolicy(int weight, Map<String, Integer> resources) {

  /** The policy when {@code sra.enable} is false or {@code sra} is absent. */
  static final SraPolicy DISABLED = new SraPolicy(0, Map.of());

  private static final Set<String> KEYS = Set.of("enable", "resources", "weight", "resourceWeight");

  SraPolicy {
    resources = Collections.unmodifiableMap(new LinkedHashMap<>(resources));
  }

  /** Whether this part adds to node scores. */
  boolean active() {
    return weight > 0;
  }

  /** Σ of the resource weights. */
  int weightSum() {
    int sum = 0;
    for (int w : resources.values()) {
      sum += w;
    }
    return sum;
  }

  /** Reads the {@code sra} argument; absent or not enabled gives {@link #DISABLED}. */
  static SraPolicy parse(String plugin, String key, Object value) {
    NestedArguments map = NestedArguments.of(plugin, key, value);
    if (map == null) {
      return DISABLED;
    }
    map.refuseUnknownKeys(KEYS);
    boolean enable = map.getBoolean("enable", false);
    String list = map.getString("resources", "");
    int weight = map.getInt("weight", 0);
    NestedArguments resourceWeight = map.getMap("resourceWeight");
    Map<String, Integer> resources = new LinkedHashMap<>();
    for (String raw : list.split(",", -1)) {
      String name = raw.trim();
      if (name.isEmpty()) {
        continue;
      }
      int w = 1;
      if (resourceWeight != null) {
        w =
            NestedArguments.toInt(
                plugin, resourceWeight.pathOf(name), resourceWeight.values().get(name), 1);
      }
      resources.put(name, w < 0 ? 1 : w);
    }
    if (resourceWeight != null) {
      // Check the types of weights for resources that are not listed too.
      for (Map.Entry<String, Object> e : resourceWeight.values().entrySet()) {
        NestedArguments.toInt(plugin, resourceWeight.pathOf(e.getKey()), e.getValue(), 1);
      }
    }
    return enable ? new SraPolicy(weight, resources) : DISABLED;
  }

  /** The compiled form used while scoring. */
  Compiled compile() {
    int[] indices = new int[resources.size()];
    int[] weights = new int[resources.size()];
    int k = 0;
    for (Map.Entry<String, Integer> e : resources.entrySet()) {
      indices[k] = ResourceNames.indexOf(e.getKey());
      weights[k] = e.getValue();
      k++;
    }
    return new Compiled(weight, indices, weights, weightSum());
  }

  /** The policy with resource indices resolved. */
  static final class Compiled {
    private final int weight;
    private final int[] indices;
    private final int[] weights;
    private final int weightSum;

    Compiled(int weight, int[] indices, int[] weights, int weightSum) {
      this.weight = weight;
      this.indices = indices;
      this.weights = weights;
      this.weightSum = weightSum;
    }

    /**
     * {@code sraScore}: 0 if the node lacks (allocatable 0) any resource the task requests;
     * otherwise {@code s} = Σ weight of the listed resources the node has, and the score is {@code
     * (1 − s / Σ weights) · 100 · sra.weight} (just {@code s · 100 · sra.weight} when the weights
     * sum to 0).
     *
     * @param requested the task's request dimensions of at least ε ({@code ResourceNames()})
     */
    double score(int[] requested, NodeInfo node) {
      ResourceView allocatable = node.allocatable();
      for (int i : requested) {
        if (allocatable.get(i) == 0) {
          return 0;
        }
      }
      double score = 0;
      for (int k = 0; k < indices.length; k++) {
        if (allocatable.get(indices[k]) > 0) {
          score += weights[k];
        }
      }
      if (weightSum > 0) {
        score /= weightSum;
        score = 1.0 - score;
      }
      return score * (double) (ResourceStrategyFitPlugin.MAX_NODE_SCORE * (long) weight);
    }
  }
}
