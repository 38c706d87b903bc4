package dev.caldera.plugins.tasktopology;

import dev.caldera.api.PluginArguments;

/**
 * The {@code task-topology} plugin's arguments, with Volcano's key and default.
 *
 * @param weight {@value #WEIGHT}, default 1: multiplies the node score (any integer, as in Volcano)
 */
public record TaskTopologyArguments(int weight) {

  public static final String WEIGHT = "task-topology.weight";

  /** Volcano's default. */
  public static final TaskTopologyArguments DEFAULTS = new TaskTopologyArguments(1);

  /**
   * Reads and validates the arguments; unknown keys are ignored, as in Volcano.
   *
   * @throws dev.caldera.api.PluginArgumentException when the weight is not an integer
   */
  public static TaskTopologyArguments from(PluginArguments args) {
    return new TaskTopologyArguments(args.getInt(WEIGHT, DEFAULTS.weight));
  }
}
