package dev.caldera.framework;

import dev.caldera.api.PluginFactory;
import dev.caldera.api.action.Action;
import java.util.Optional;
import java.util.SortedSet;

/**
 * Where sessions find plugin factories and actions. Fed by OSGi Declarative Services inside Felix
 * and by {@link java.util.ServiceLoader} outside it; a session takes what is there when it opens
 * and keeps it until it closes.
 */
public interface PluginRegistry {

  /** The factory registered under {@code name}, if any. */
  Optional<PluginFactory> plugin(String name);

  /** The action registered under {@code name}, if any. */
  Optional<Action> action(String name);

  /** Names of every available plugin. */
  SortedSet<String> pluginNames();

  /** Names of every available action. */
  SortedSet<String> actionNames();

  /** Where the plugin comes from (bundle symbolic name and version, or a jar), for logs. */
  default String origin(String pluginName) {
    return plugin(pluginName).map(f -> f.getClass().getName()).orElse("missing");
  }
}
