package dev.caldera.framework.conf;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * One plugin entry of a tier.
 *
 * @param enabled the flags that are on (defaults applied)
 * @param arguments the plugin's {@code arguments}, as YAML values
 * @param optional Caldera's {@code optional: true}: a missing plugin is skipped instead of holding
 *     scheduling
 */
public record PluginOption(
    String name, Set<Flag> enabled, Map<String, Object> arguments, boolean optional) {
  public PluginOption {
    enabled = enabled.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(enabled));
    arguments = arguments == null ? Map.of() : Map.copyOf(arguments);
  }

  /** Whether {@code flag} is on for this entry. */
  public boolean isEnabled(Flag flag) {
    return enabled.contains(flag);
  }

  /** An entry with every flag at its default and no arguments. */
  public static PluginOption defaults(String name) {
    EnumSet<Flag> on = EnumSet.noneOf(Flag.class);
    for (Flag f : Flag.values()) {
      if (f.defaultValue()) {
        on.add(f);
      }
    }
    return new PluginOption(name, on, Map.of(), false);
  }
}
