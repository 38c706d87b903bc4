package dev.caldera.framework.internal.osgi;

import dev.caldera.api.PluginFactory;
import dev.caldera.api.action.Action;
import dev.caldera.framework.MapPluginRegistry;
import dev.caldera.framework.PluginRegistry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.osgi.framework.Bundle;
import org.osgi.framework.FrameworkUtil;
import org.osgi.framework.Version;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;

/**
 * The registry inside Felix: Declarative Services binds every {@link PluginFactory} and {@link
 * Action} service as bundles come and go. A session copies what it needs when it opens and holds
 * the registry ({@link #inUse()}) until it closes: a service that leaves meanwhile waits for it, so
 * its bundle is not stopped, updated or refreshed under the session.
 */
@Component(service = PluginRegistry.class)
public final class OsgiPluginRegistry extends MapPluginRegistry {

  /** How long a withdrawing bundle waits for the sessions in flight. */
  static final long WITHDRAW_WAIT_MILLIS = TimeUnit.SECONDS.toMillis(60);

  public OsgiPluginRegistry() {
    super(new ConcurrentSkipListMap<>(), new ConcurrentSkipListMap<>());
  }

  private final Object lock = new Object();
  private final Providers<PluginFactory> pluginProviders = new Providers<>();
  private final Providers<Action> actionProviders = new Providers<>();
  private int sessionsInFlight;
  private int withdrawals;

  /**
   * A plugin factory arrives; of several for one name, the one in force is chosen as {@link
   * Providers} says (highest bundle version, then service ranking, then the first registered).
   */
  @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
  void addPlugin(PluginFactory factory, Map<String, Object> properties) {
    arrived(pluginProviders, plugins(), factory.name(), factory, properties);
  }

  /** A plugin factory leaves; another provider of its name, if one is left, takes over. */
  void removePlugin(PluginFactory factory, Map<String, Object> properties) {
    left(pluginProviders, plugins(), factory.name(), factory);
  }

  @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
  void addAction(Action action, Map<String, Object> properties) {
    arrived(actionProviders, actions(), action.name(), action, properties);
  }

  void removeAction(Action action, Map<String, Object> properties) {
    left(actionProviders, actions(), action.name(), action);
  }

  private <T> void arrived(
      Providers<T> providers,
      Map<String, T> inForce,
      String name,
      T service,
      Map<String, Object> properties) {
    synchronized (lock) {
      inForce.put(
          name,
          providers.add(name, Providers.provider(service, bundleVersion(service), properties)));
    }
  }

  private <T> void left(Providers<T> providers, Map<String, T> inForce, String name, T service) {
    synchronized (lock) {
      awaitNoSession();
      Optional<T> next = providers.remove(name, service);
      if (next.isPresent()) {
        inForce.put(name, next.get());
      } else {
        inForce.remove(name, service);
      }
      withdrawn();
    }
  }

  private static Version bundleVersion(Object service) {
    Bundle b = FrameworkUtil.getBundle(service.getClass());
    return b == null ? Version.emptyVersion : b.getVersion();
  }

  @Override
  public Use inUse() {
    synchronized (lock) {
      // A withdrawal waiting for the last session goes first, so sessions cannot starve it.
      while (withdrawals > 0) {
        try {
          lock.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      sessionsInFlight++;
    }
    AtomicBoolean closed = new AtomicBoolean();
    return () -> {
      if (closed.compareAndSet(false, true)) {
        synchronized (lock) {
          sessionsInFlight--;
          lock.notifyAll();
        }
      }
    };
  }

  /**
   * Waits, holding {@link #lock}, until no session is in flight or the wait times out; new sessions
   * wait until {@link #withdrawn()}.
   */
  private void awaitNoSession() {
    withdrawals++;
    long deadline = System.currentTimeMillis() + WITHDRAW_WAIT_MILLIS;
    long left = WITHDRAW_WAIT_MILLIS;
    while (sessionsInFlight > 0 && left > 0) {
      try {
        lock.wait(left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      left = deadline - System.currentTimeMillis();
    }
  }

  private void withdrawn() {
    withdrawals--;
    lock.notifyAll();
  }

  @Override
  public String origin(String pluginName) {
    PluginFactory f = plugins().get(pluginName);
    return f == null ? "missing" : describe(f);
  }

  /**
   * A factory that arrives for a name another factory provides does not replace it unless it ranks
   * higher (highest bundle version, then highest {@code service.ranking}, then first registered);
   * the one that ranks lower is refused and kept aside, to take over if the one in force leaves.
   */
  @Override
  public List<String> refusals() {
    synchronized (lock) {
      return pluginProviders.refusals(OsgiPluginRegistry::describe);
    }
  }

  private static String describe(Object service) {
    Bundle b = FrameworkUtil.getBundle(service.getClass());
    return b == null ? service.getClass().getName() : b.getSymbolicName() + " " + b.getVersion();
  }
}
