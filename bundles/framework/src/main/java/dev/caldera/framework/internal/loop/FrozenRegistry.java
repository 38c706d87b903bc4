package dev.caldera.framework.internal.loop;

import dev.caldera.api.PluginFactory;
import dev.caldera.api.action.Action;
import dev.caldera.framework.PluginRegistry;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a live registry held at one instant: a session runs on this copy, so a bundle that comes or
 * goes during the session changes nothing for it.
 */
final class FrozenRegistry implements PluginRegistry {

  private final Map<String, PluginFactory> plugins = new TreeMap<>();
  private final Map<String, String> origins = new TreeMap<>();
  private final Map<String, Action> actions = new TreeMap<>();

  private FrozenRegistry() {}

  /** Copies every plugin factory (with its origin) and action {@code live} holds now. */
  static FrozenRegistry of(PluginRegistry live) {
    FrozenRegistry r = new FrozenRegistry();
    for (String name : live.pluginNames()) {
      live.plugin(name)
          .ifPresent(
              f -> {
                r.plugins.put(name, f);
                r.origins.put(name, live.origin(name));
              });
    }
    for (String name : live.actionNames()) {
      live.action(name).ifPresent(a -> r.actions.put(name, a));
    }
    return r;
  }

  /** Plugin name → origin, for every plugin. */
  Map<String, String> origins() {
    return Collections.unmodifiableMap(new LinkedHashMap<>(origins));
  }

  @Override
  public Optional<PluginFactory> plugin(String name) {
    return Optional.ofNullable(plugins.get(name));
  }

  @Override
  public Optional<Action> action(String name) {
    return Optional.ofNullable(actions.get(name));
  }

  @Override
  public SortedSet<String> pluginNames() {
    return Collections.unmodifiableSortedSet(new TreeSet<>(plugins.keySet()));
  }

  @Override
  public SortedSet<String> actionNames() {
    return Collections.unmodifiableSortedSet(new TreeSet<>(actions.keySet()));
  }

  @Override
  public String origin(String pluginName) {
    return origins.getOrDefault(pluginName, "missing");
  }
}
