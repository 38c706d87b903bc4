package dev.caldera.framework;

import dev.caldera.api.PluginFactory;
import dev.caldera.api.action.Action;
import java.util.ArrayList;
import java.util.List;
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

  private final List<String> refusals = new ArrayList<>();

  /**
   * Loads from {@code loader}. Of two factories of one name the first found on the class path is
   * kept and the other refused ({@link #refusals()}).
   */
  public ServiceLoaderPluginRegistry(ClassLoader loader) {
    super(new TreeMap<>(), new TreeMap<>());
    for (PluginFactory f : ServiceLoader.load(PluginFactory.class, loader)) {
      PluginFactory first = plugins().putIfAbsent(f.name(), f);
      if (first != null) {
        refusals.add(
            "plugin "
                + f.name()
                + ": "
                + f.getClass().getName()
                + " refused, "
                + first.getClass().getName()
                + " provides it (the first on the class path wins)");
      }
    }
    for (Action a : ServiceLoader.load(Action.class, loader)) {
      actions().putIfAbsent(a.name(), a);
    }
  }

  @Override
  public List<String> refusals() {
    return List.copyOf(refusals);
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
