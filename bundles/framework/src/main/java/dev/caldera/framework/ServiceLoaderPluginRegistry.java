package dev.caldera.framework;

import dev.caldera.api.PluginFactory;
import dev.caldera.api.action.Action;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A registry of the plugin factories and actions found on the class path with {@link ServiceLoader}
 * ({@code META-INF/services}), for use outside OSGi: {@code caldera simulate}, {@code caldera
 * bench} and tests. The set is read once, at construction.
 */
public final class ServiceLoaderPluginRegistry implements PluginRegistry {

  private final Map<String, PluginFactory> plugins = new TreeMap<>();
  private final Map<String, Action> actions = new TreeMap<>();

  /** Loads from the class loader that loaded this class. */
  public ServiceLoaderPluginRegistry() {
    this(ServiceLoaderPluginRegistry.class.getClassLoader());
  }

  /** Loads from {@code loader}. */
  public ServiceLoaderPluginRegistry(ClassLoader loader) {
    for (PluginFactory f : ServiceLoader.load(PluginFactory.class, loader)) {
      plugins.putIfAbsent(f.name(), f);
    }
    for (Action a : ServiceLoader.load(Action.class, loader)) {
      actions.putIfAbsent(a.name(), a);
    }
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
    PluginFactory f = plugins.get(pluginName);
    if (f == null) {
      return "missing";
    }
    Package p = f.getClass().getPackage();
    String version = p == null ? null : p.getImplementationVersion();
    return f.getClass().getName() + (version == null ? "" : " " + version);
  }
}
