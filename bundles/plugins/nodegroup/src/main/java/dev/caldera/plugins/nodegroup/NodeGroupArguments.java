package dev.caldera.plugins.nodegroup;

import dev.caldera.api.PluginArguments;

/**
 * The {@code nodegroup} plugin's arguments, with Volcano's keys and defaults.
 *
 * @param strict {@value #STRICT}, default true: a node without the group label is refused even for
 *     a queue without node group affinity
 * @param enablePreferredOrder {@value #ENABLE_PREFERRED_ORDER}, default false: preferred groups
 *     score by their position in the list instead of a flat 50
 * @param hierarchy the entry's {@code enableHierarchy} flag: a queue without {@code spec.affinity}
 *     inherits the affinity of its nearest ancestor that has one
 */
public record NodeGroupArguments(boolean strict, boolean enablePreferredOrder, boolean hierarchy) {

  public static final String STRICT = "strict";
  public static final String ENABLE_PREFERRED_ORDER = "enablePreferredOrder";

  /** Volcano's defaults. */
  public static final NodeGroupArguments DEFAULTS = new NodeGroupArguments(true, false, false);

  /**
   * Reads and validates the arguments; unknown keys are ignored, as in Volcano.
   *
   * @throws dev.caldera.api.PluginArgumentException naming the first key with a wrong type
   */
  public static NodeGroupArguments from(PluginArguments args) {
    return new NodeGroupArguments(
        args.getBoolean(STRICT, DEFAULTS.strict),
        args.getBoolean(ENABLE_PREFERRED_ORDER, DEFAULTS.enablePreferredOrder),
        args.hierarchyEnabled());
  }
}
