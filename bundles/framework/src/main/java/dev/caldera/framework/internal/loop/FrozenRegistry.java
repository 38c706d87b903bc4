package dev.caldera.framework.internal.loop;

import dev.caldera.framework.MapPluginRegistry;
import dev.caldera.framework.PluginRegistry;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a live registry held at one instant: a session runs on this copy, so a bundle that comes or
 * goes during the session changes nothing for it.
 */
final class FrozenRegistry extends MapPluginRegistry {

  private final Map<String, String> origins = new TreeMap<>();

  private FrozenRegistry() {
    super(new TreeMap<>(), new TreeMap<>());
  }

  /** Copies every plugin factory (with its origin) and action {@code live} holds now. */
  static FrozenRegistry of(PluginRegistry live) {
    FrozenRegistry r = new FrozenRegistry();
    for (String name : live.pluginNames()) {
      live.plugin(name)
          .ifPresent(
              f -> {
                r.plugins().put(name, f);
                r.origins.put(name, live.origin(name));
              });
    }
    for (String name : live.actionNames()) {
      live.action(name).ifPresent(a -> r.actions().put(name, a));
    }
    return r;
  }

  /** Plugin name → origin, for every plugin. */
  Map<String, String> origins() {
    return Collections.unmodifiableMap(new LinkedHashMap<>(origins));
  }

  @Override
  public String origin(String pluginName) {
    return origins.getOrDefault(pluginName, "missing");
  }
}
