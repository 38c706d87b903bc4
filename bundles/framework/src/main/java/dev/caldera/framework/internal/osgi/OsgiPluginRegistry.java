package dev.caldera.framework.internal.osgi;

import dev.caldera.api.PluginFactory;
import dev.caldera.api.action.Action;
import dev.caldera.framework.PluginRegistry;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListMap;
import org.osgi.framework.Bundle;
import org.osgi.framework.FrameworkUtil;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;

/**
 * The registry inside Felix: Declarative Services binds every {@link PluginFactory} and {@link
 * Action} service as bundles come and go. A session copies what it needs when it opens, so a
 * service leaving mid-session does not affect it.
 */
@Component(service = PluginRegistry.class)
public final class OsgiPluginRegistry implements PluginRegistry {

  private final Map<String, PluginFactory> plugins = new ConcurrentSkipListMap<>();
  private final Map<String, Action> actions = new ConcurrentSkipListMap<>();

  @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
  void addPlugin(PluginFactory factory) {
    plugins.put(factory.name(), factory);
  }

  void removePlugin(PluginFactory factory) {
    plugins.remove(factory.name(), factory);
  }

  @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
  void addAction(Action action) {
    actions.put(action.name(), action);
  }

  void removeAction(Action action) {
    actions.remove(action.name(), action);
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
    Bundle b = FrameworkUtil.getBundle(f.getClass());
    return b == null ? f.getClass().getName() : b.getSymbolicName() + " " + b.getVersion();
  }
}
