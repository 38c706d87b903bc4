package dev.caldera.testkit;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.Session;
import dev.caldera.api.extension.NodeLocality;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Captures what a plugin registers, so that a test can fetch and call a function directly: {@code
 * RecordingExtensions.open(plugin, session).get(ExtensionPoint.JOB_ORDER)}.
 */
public final class RecordingExtensions implements Extensions {

  private final Map<ExtensionPoint<?>, List<Object>> registered = new LinkedHashMap<>();
  private final Map<ExtensionPoint<?>, NodeLocality> localities = new LinkedHashMap<>();

  /** Opens {@code plugin} on {@code session} and returns what it registered. */
  public static RecordingExtensions open(Plugin plugin, Session session) {
    RecordingExtensions extensions = new RecordingExtensions();
    plugin.onSessionOpen(session, extensions);
    return extensions;
  }

  @Override
  public <T> void add(ExtensionPoint<T> point, T fn) {
    if (fn == null) {
      throw new IllegalArgumentException("null function registered for " + point);
    }
    registered.computeIfAbsent(point, p -> new ArrayList<>()).add(fn);
    localities.remove(point);
  }

  @Override
  public <T> void add(ExtensionPoint<T> point, T fn, NodeLocality locality) {
    Extensions.super.add(point, fn, locality);
    localities.put(point, locality);
  }

  /**
   * The node locality the last function of {@code point} was registered with, or null when it was
   * registered without one.
   */
  public NodeLocality locality(ExtensionPoint<?> point) {
    return localities.get(point);
  }

  /** The last function registered for {@code point}; fails if there is none. */
  public <T> T get(ExtensionPoint<T> point) {
    List<T> all = all(point);
    if (all.isEmpty()) {
      throw new AssertionError("nothing registered for " + point + "; registered: " + points());
    }
    return all.get(all.size() - 1);
  }

  /** Every function registered for {@code point}, in registration order. */
  public <T> List<T> all(ExtensionPoint<T> point) {
    List<T> out = new ArrayList<>();
    for (Object fn : registered.getOrDefault(point, List.of())) {
      out.add(point.type().cast(fn));
    }
    return out;
  }

  /** Whether anything was registered for {@code point}. */
  public boolean has(ExtensionPoint<?> point) {
    return registered.containsKey(point);
  }

  /** The points that got a registration, in first-registration order. */
  public Set<ExtensionPoint<?>> points() {
    return registered.keySet();
  }
}
