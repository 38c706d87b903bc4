package dev.caldera.plugins.resourcestrategyfit;

import dev.caldera.api.PluginArguments;

/**
 * The {@code resource-strategy-fit} plugin's arguments, with Volcano's keys and defaults:
 *
 * <pre>
 * resourceStrategyFitWeight: 10
 * resources:
 *   nvidia.com/gpu: {type: MostAllocated, weight: 2}
 *   cpu: {type: LeastAllocated, weight: 1}
 * sra: {enable: true, resources: nvidia.com/gpu, weight: 10, resourceWeight: {nvidia.com/gpu: 1}}
 * proportional:
 *   enable: true
 *   resources: nvidia.com/gpu
 *   resourceProportion: {nvidia.com/gpu.cpu: 4, nvidia.com/gpu.memory: 8}
 * </pre>
 *
 * @param fitWeight {@value #FIT_WEIGHT}, default 10; a negative value becomes 10, 0 turns the fit
 *     part off
 * @param resources {@value #RESOURCES}; default cpu and memory, LeastAllocated, weight 1
 * @param sra {@value #SRA}; {@link SraPolicy#DISABLED} unless enabled
 * @param proportional {@value #PROPORTIONAL}; null unless enabled
 */
record ResourceStrategyFitArguments(
    int fitWeight, ResourceStrategies resources, SraPolicy sra, ProportionalPolicy proportional) {

  static final String FIT_WEIGHT = "resourceStrategyFitWeight";
  static final String RESOURCES = "resources";
  static final String SRA = "sra";
  static final String PROPORTIONAL = "proportional";

  /** Volcano's default fit weight. */
  static final int DEFAULT_FIT_WEIGHT = 10;

  /** Every default: fit weight 10 on cpu and memory, no sub-policy. */
  static final ResourceStrategyFitArguments DEFAULTS =
      new ResourceStrategyFitArguments(
          DEFAULT_FIT_WEIGHT, ResourceStrategies.DEFAULT, SraPolicy.DISABLED, null);

  /**
   * Reads and validates the arguments; unknown top-level keys are ignored, as in Volcano.
   *
   * @throws dev.caldera.api.PluginArgumentException naming the first key (path) with a wrong type
   *     or value
   */
  static ResourceStrategyFitArguments from(PluginArguments args) {
    String plugin = args.plugin();
    int fitWeight = args.getInt(FIT_WEIGHT, DEFAULT_FIT_WEIGHT);
    if (fitWeight < 0) {
      fitWeight = DEFAULT_FIT_WEIGHT;
    }
    ResourceStrategies resources =
        ResourceStrategies.parse(plugin, RESOURCES, args.values().get(RESOURCES));
    SraPolicy sra = SraPolicy.parse(plugin, SRA, args.values().get(SRA));
    ProportionalPolicy proportional =
        ProportionalPolicy.parse(plugin, PROPORTIONAL, args.values().get(PROPORTIONAL));
    return new ResourceStrategyFitArguments(fitWeight, resources, sra, proportional);
  }
}
