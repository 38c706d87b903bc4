package dev.caldera.plugins.drf;

import dev.caldera.api.PluginArguments;

/**
 * The drf plugin's options. Volcano's drf reads no argument keys; only the plugin entry's {@code
 * enableHierarchy} flag, which turns on hierarchical DRF.
 *
 * @param hierarchyEnabled {@code enableHierarchy}, on the plugin's entry beside {@code name} (not
 *     under {@code arguments}), default false: hierarchical DRF over the queue tree
 */
public record DrfArguments(boolean hierarchyEnabled) {

  /** Reads the options; unknown keys are ignored, as Volcano does. */
  public static DrfArguments from(PluginArguments arguments) {
    return new DrfArguments(arguments.hierarchyEnabled());
  }
}
