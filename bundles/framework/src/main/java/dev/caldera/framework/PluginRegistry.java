package dev.caldera.framework;

import dev.caldera.api.PluginFactory;
import dev.caldera.api.action.Action;
import java.util.List;
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

  /**
   * The plugin factories this registry refused because another factory holds their name, one line
   * each naming the plugin, the refused provider, the one in force and the rule that chose (empty
   * when none was refused). Of two providers of one name the registry keeps one in force; the other
   * is never used while it is there.
   */
  default List<String> refusals() {
    return List.of();
  }

  /**
   * Marks what this registry hands out from now on as in use by a session, until the handle is
   * closed. While a handle is open, a bundle that withdraws a plugin or an action waits (for a
   * bounded time) before it goes, so the session in flight keeps working plugins and the change
   * applies to the next session. The default does nothing: a registry read once never changes.
   */
  default Use inUse() {
    return () -> {};
  }

  /** A session's hold on the registry; closing it more than once is harmless. */
  interface Use extends AutoCloseable {
    @Override
    void close();
  }
}
