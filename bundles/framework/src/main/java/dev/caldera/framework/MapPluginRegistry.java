package dev.caldera.framework;

import dev.caldera.api.PluginFactory;
import dev.caldera.api.action.Action;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A registry backed by two maps, name → plugin factory and name → action; subclasses decide how the
 * maps are filled (once from {@link java.util.ServiceLoader}, by Declarative Services as bundles
 * come and go, or as a frozen copy) and which map implementation keeps that safe.
 */
public abstract class MapPluginRegistry implements PluginRegistry {

  private final Map<String, PluginFactory> plugins;
  private final Map<String, Action> actions;

  /** A registry reading and writing the given maps. */
  protected MapPluginRegistry(Map<String, PluginFactory> plugins, Map<String, Action> actions) {
    this.plugins = plugins;
    this.actions = actions;
  }

  /** The plugin map, for subclasses that fill it. */
  protected final Map<String, PluginFactory> plugins() {
    return plugins;
  }

  /** The action map, for subclasses that fill it. */
  protected final Map<String, Action> actions() {
    return actions;
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
}
