package dev.caldera.framework.internal.session;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.extension.NodeLocality;
import dev.caldera.framework.ExtensionTable;
import dev.caldera.framework.conf.PluginOption;
import dev.caldera.framework.conf.Tier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The functions plugins registered, per extension point and plugin name, and their freezing into
 * the per-tier lists a session walks: an entry is in a tier's list when its plugin registered a
 * function for the point and one of the point's gates ({@link ExtensionTable}) is on in the entry.
 */
final class Registrations {

  /** The points whose calls the session samples for the per-function times (task x node). */
  private static final Set<ExtensionPoint<?>> TIMED =
      Set.of(
          ExtensionPoint.PREDICATE,
          ExtensionPoint.PRE_PREDICATE,
          ExtensionPoint.NODE_ORDER,
          ExtensionPoint.BATCH_NODE_ORDER);

  /** A registration: the function and the node locality it came with (null: none). */
  private record Entry(Object fn, NodeLocality locality) {}

  private final Map<ExtensionPoint<?>, Map<String, List<Entry>>> byPoint = new HashMap<>();
  private final List<Registered<Object>> eventHandlers = new ArrayList<>();

  /** An {@link Extensions} bound to one plugin name. */
  Extensions forPlugin(String plugin) {
    return new Extensions() {
      @Override
      public <T> void add(ExtensionPoint<T> point, T fn) {
        if (point == ExtensionPoint.EVENT_HANDLER) {
          eventHandlers.add(new Registered<>(plugin, fn, null, null));
          return;
        }
        List<Entry> fns =
            byPoint
                .computeIfAbsent(point, p -> new LinkedHashMap<>())
                .computeIfAbsent(plugin, p -> new ArrayList<>());
        // A plugin may register several victim-task functions; elsewhere the last one counts.
        if (point != ExtensionPoint.VICTIM_TASKS) {
          fns.clear();
        }
        fns.add(new Entry(point.type().cast(fn), null));
      }

      @Override
      public <T> void add(ExtensionPoint<T> point, T fn, NodeLocality locality) {
        Extensions.super.add(point, fn, locality);
        List<Entry> fns = byPoint.get(point).get(plugin);
        fns.set(fns.size() - 1, new Entry(fn, locality));
      }
    };
  }

  /** Every point's functions that take part in a session with {@code tiers}. */
  Frozen freeze(List<Tier> tiers, FunctionTimes times) {
    Map<ExtensionPoint<?>, Tiers<?>> frozen = new IdentityHashMap<>();
    for (ExtensionTable.Row row : ExtensionTable.rows()) {
      frozen.put(row.point(), freeze(row.point(), row, tiers, times));
    }
    return new Frozen(frozen);
  }

  private <T> Tiers<T> freeze(
      ExtensionPoint<T> point, ExtensionTable.Row row, List<Tier> tiers, FunctionTimes times) {
    List<List<Registered<T>>> out = new ArrayList<>();
    if (point == ExtensionPoint.EVENT_HANDLER) {
      List<Registered<T>> handlers = new ArrayList<>();
      for (Registered<Object> h : eventHandlers) {
        handlers.add(new Registered<>(h.plugin(), point.type().cast(h.fn()), null, null));
      }
      out.add(handlers);
      return new Tiers<>(point, out);
    }
    Map<String, List<Entry>> plugins = byPoint.getOrDefault(point, Map.of());
    boolean timed = TIMED.contains(point);
    for (Tier tier : tiers) {
      List<Registered<T>> fns = new ArrayList<>();
      for (PluginOption option : tier.plugins()) {
        List<Entry> registered = plugins.get(option.name());
        if (registered == null || !row.enabled(option)) {
          continue;
        }
        for (Entry e : registered) {
          fns.add(
              new Registered<>(
                  option.name(),
                  point.type().cast(e.fn()),
                  timed ? times.clock(option.name(), point.name()) : null,
                  e.locality()));
        }
      }
      out.add(fns);
    }
    return new Tiers<>(point, out);
  }

  /** The frozen functions of every point. */
  static final class Frozen {

    private final Map<ExtensionPoint<?>, Tiers<?>> points;

    private Frozen(Map<ExtensionPoint<?>, Tiers<?>> points) {
      this.points = points;
    }

    /**
     * The functions of {@code point}, for code that combines them as {@code combination}; the
     * table's combination of the point must be that one.
     *
     * @throws IllegalStateException when the table combines the point otherwise
     */
    @SuppressWarnings("unchecked") // freeze() keys each Tiers by its own point
    <T> Tiers<T> get(ExtensionPoint<T> point, ExtensionTable.Combination combination) {
      ExtensionTable.Combination table = ExtensionTable.of(point).combination();
      if (table != combination) {
        throw new IllegalStateException(
            "extension point "
                + point
                + " is combined as "
                + table
                + " in the table, but dispatched as "
                + combination);
      }
      return (Tiers<T>) points.get(point);
    }
  }
}
