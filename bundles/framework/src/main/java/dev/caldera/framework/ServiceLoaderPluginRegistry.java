package dev.caldera.framework;

import dev.caldera.api.PluginFactory;
import dev.caldera.api.action.Action;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * A registry of the plugin factories and actions found on the class path with {@link ServiceLoader}
 * ({@code META-INF/services}), for use outside OSGi: {@code caldera simulate}, {@code caldera
 * bench} and tests. The set is read once, at construction.
 */
public final class ServiceLoaderPluginRegistry extends MapPluginRegistry {

  /** Loads from the class loader that loaded this class. */
  public ServiceLoaderPluginRegistry() {
    this(ServiceLoaderPluginRegistry.class.getClassLoader());
  }

  /** Loads from {@code loader}. */
  public ServiceLoaderPluginRegistry(ClassLoader loader) {
    super(new TreeMap<>(), new TreeMap<>());
    for (PluginFactory f : ServiceLoader.load(PluginFactory.class, loader)) {
      plugins().putIfAbsent(f.name(), f);
    }
    for (Action a : ServiceLoader.load(Action.class, loader)) {
      actions().putIfAbsent(a.name(), a);
    }
  }

  @Override
  public String origin(String pluginName) {
    PluginFactory f = plugins().get(pluginName);
    if (f == null) {
      return "missing";
    }
    Package p = f.getClass().getPackage();
    String version = p == null ? null : p.getImplementationVersion();
    return f.getClass().getName() + (version == null ? "" : " " + version);
  }
}
