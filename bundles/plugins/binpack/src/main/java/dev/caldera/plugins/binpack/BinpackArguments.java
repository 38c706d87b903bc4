package dev.caldera.plugins.binpack;

import dev.caldera.api.PluginArguments;
import dev.caldera.api.resource.ResourceNames;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code binpack} plugin's arguments, with Volcano's keys and defaults.
 *
 * @param weight {@value #WEIGHT}, default 1; 0 registers nothing. A negative weight is accepted as
 *     in Volcano: it turns packing into spreading.
 * @param cpu {@value #CPU}, default 1; a negative value becomes 1
 * @param memory {@value #MEMORY}, default 1; a negative value becomes 1
 * @param resources the extra resources listed in {@value #RESOURCES} (comma-separated, trimmed),
 *     each with its weight {@code binpack.resources.<name>} (default 1; a negative value becomes
 *     1), in the order listed
 */
public record BinpackArguments(int weight, int cpu, int memory, Map<String, Integer> resources) {

  public static final String WEIGHT = "binpack.weight";
  public static final String CPU = "binpack.cpu";
  public static final String MEMORY = "binpack.memory";
  public static final String RESOURCES = "binpack.resources";
  public static final String RESOURCE_PREFIX = RESOURCES + ".";

  /** Volcano's defaults: every weight 1, no extra resources. */
  public static final BinpackArguments DEFAULTS = new BinpackArguments(1, 1, 1, Map.of());

  public BinpackArguments {
    resources = Collections.unmodifiableMap(new LinkedHashMap<>(resources));
  }

  /**
   * Reads and validates the arguments; unknown keys are ignored, as in Volcano.
   *
   * @throws dev.caldera.api.PluginArgumentException naming the first key with a wrong type
   */
  public static BinpackArguments from(PluginArguments args) {
    int weight = args.getInt(WEIGHT, DEFAULTS.weight);
    int cpu = negativeToOne(args.getInt(CPU, DEFAULTS.cpu));
    int memory = negativeToOne(args.getInt(MEMORY, DEFAULTS.memory));
    Map<String, Integer> resources = new LinkedHashMap<>();
    for (String raw : args.getString(RESOURCES, "").split(",", -1)) {
      String name = raw.trim();
      if (name.isEmpty()) {
        continue;
      }
      resources.put(name, negativeToOne(args.getInt(RESOURCE_PREFIX + name, 1)));
    }
    return new BinpackArguments(weight, cpu, memory, resources);
  }

  private static int negativeToOne(int value) {
    return value < 0 ? 1 : value;
  }

  /**
   * The weight of every resource dimension by {@link ResourceNames} index, -1 where no weight is
   * configured: cpu and memory always have theirs; an extra resource named {@code cpu} or {@code
   * memory} is ignored, as in Volcano.
   */
  int[] weightsByIndex() {
    int width = 2;
    for (String name : resources.keySet()) {
      width = Math.max(width, ResourceNames.indexOf(name) + 1);
    }
    int[] weights = new int[width];
    Arrays.fill(weights, -1);
    for (Map.Entry<String, Integer> e : resources.entrySet()) {
      weights[ResourceNames.indexOf(e.getKey())] = e.getValue();
    }
    weights[ResourceNames.CPU_INDEX] = cpu;
    weights[ResourceNames.MEMORY_INDEX] = memory;
    return weights;
  }
}
