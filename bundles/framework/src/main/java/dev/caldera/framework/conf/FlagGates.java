package dev.caldera.framework.conf;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.framework.ExtensionTable;
import java.util.Set;

/**
 * Which {@link Flag} of a plugin entry gates which extension point: a plugin's function for a point
 * takes part only when one of the point's flags is on in the plugin's entry. A point with no flag
 * always takes part. The gates are rows of {@link ExtensionTable}; this class reads them there.
 */
public final class FlagGates {

  private FlagGates() {}

  /** The flags gating {@code point}; any one of them on enables it; empty when none gates it. */
  public static Set<Flag> of(ExtensionPoint<?> point) {
    return ExtensionTable.of(point).gates();
  }

  /** Whether {@code option}'s functions for {@code point} take part in a session. */
  public static boolean enabled(ExtensionPoint<?> point, PluginOption option) {
    return ExtensionTable.of(point).enabled(option);
  }
}
