package dev.caldera.runtime.bench;

import dev.caldera.api.ClusterInfo;
import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import dev.caldera.api.Session;
import dev.caldera.api.action.Action;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.framework.PluginRegistry;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the tasks that count as placed in the session running now, for a progress line read from
 * another thread. It listens through the sessions' own {@link EventHandler} extension point: {@link
 * #watching} hands out a registry whose factory for one plugin of the conf also registers a
 * counting handler when its plugin opens, so the framework needs no hook of its own and decisions
 * do not change (the handler always answers OK). A gang rolled back counts down again.
 */
public final class PlacementCounter {

  private final AtomicLong placed = new AtomicLong();

  /** Tasks placed since the last {@link #reset}; safe to read from any thread. */
  public long placed() {
    return placed.get();
  }

  /** Starts counting from zero, before a session. */
  public void reset() {
    placed.set(0);
  }

  /**
   * {@code registry}, but the plugin named {@code carrier} (one the conf opens in every session)
   * also registers this counter's handler.
   */
  public PluginRegistry watching(PluginRegistry registry, String carrier) {
    return new CountingRegistry(registry, carrier, this);
  }

  private final class Handler implements EventHandler {
    @Override
    public Status allocated(TaskInfo task) {
      placed.incrementAndGet();
      return Status.OK;
    }

    @Override
    public void deallocated(TaskInfo task) {
      placed.decrementAndGet();
    }
  }

  private record CountingRegistry(PluginRegistry delegate, String carrier, PlacementCounter counter)
      implements PluginRegistry {

    @Override
    public Optional<PluginFactory> plugin(String name) {
      Optional<PluginFactory> factory = delegate.plugin(name);
      if (!name.equals(carrier)) {
        return factory;
      }
      return factory.map(f -> new CountingFactory(f, counter));
    }

    @Override
    public Optional<Action> action(String name) {
      return delegate.action(name);
    }

    @Override
    public SortedSet<String> pluginNames() {
      return delegate.pluginNames();
    }

    @Override
    public SortedSet<String> actionNames() {
      return delegate.actionNames();
    }

    @Override
    public String origin(String pluginName) {
      return delegate.origin(pluginName);
    }

    @Override
    public List<String> refusals() {
      return delegate.refusals();
    }

    @Override
    public Use inUse() {
      return delegate.inUse();
    }
  }

  private record CountingFactory(PluginFactory delegate, PlacementCounter counter)
      implements PluginFactory {
    @Override
    public String name() {
      return delegate.name();
    }

    @Override
    public Plugin create(PluginArguments arguments) {
      return new CountingPlugin(delegate.create(arguments), counter);
    }
  }

  private record CountingPlugin(Plugin delegate, PlacementCounter counter) implements Plugin {
    @Override
    public String name() {
      return delegate.name();
    }

    @Override
    public List<String> unmetRequirements(ClusterInfo cluster) {
      return delegate.unmetRequirements(cluster);
    }

    @Override
    public void onSessionOpen(Session session, Extensions extensions) {
      delegate.onSessionOpen(session, extensions);
      extensions.add(ExtensionPoint.EVENT_HANDLER, counter.new Handler());
    }

    @Override
    public void onSessionClose(Session session) {
      delegate.onSessionClose(session);
    }
  }
}
