package dev.caldera.framework.internal.session;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.framework.conf.FlagGates;
import dev.caldera.framework.conf.PluginOption;
import dev.caldera.framework.conf.Tier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The functions plugins registered, per extension point and plugin name, and the per-tier lists the
 * session walks: an entry is in a tier's list when its plugin registered a function for the point
 * and the entry's enable flag for that point is on ({@link FlagGates}).
 */
final class Registrations {

  private final Map<ExtensionPoint<?>, Map<String, List<Object>>> byPoint = new HashMap<>();
  private final List<Object> eventHandlers = new ArrayList<>();

  /** An {@link Extensions} bound to one plugin name. */
  Extensions forPlugin(String plugin) {
    return new Extensions() {
      @Override
      public <T> void add(ExtensionPoint<T> point, T fn) {
        if (point == ExtensionPoint.EVENT_HANDLER) {
          eventHandlers.add(fn);
          return;
        }
        Map<String, List<Object>> plugins =
            byPoint.computeIfAbsent(point, p -> new LinkedHashMap<>());
        List<Object> fns = plugins.computeIfAbsent(plugin, p -> new ArrayList<>());
        if (point != ExtensionPoint.VICTIM_TASKS) {
          fns.clear();
        }
        fns.add(point.type().cast(fn));
      }
    };
  }

  /** The enabled functions of {@code point}, per tier, in conf order. */
  <T> List<List<T>> tiers(ExtensionPoint<T> point, List<Tier> tiers) {
    Map<String, List<Object>> plugins = byPoint.getOrDefault(point, Map.of());
    List<List<T>> out = new ArrayList<>();
    for (Tier tier : tiers) {
      List<T> fns = new ArrayList<>();
      for (PluginOption option : tier.plugins()) {
        List<Object> registered = plugins.get(option.name());
        if (registered == null || !FlagGates.enabled(point, option)) {
          continue;
        }
        for (Object fn : registered) {
          fns.add(point.type().cast(fn));
        }
      }
      out.add(fns);
    }
    return out;
  }

  /**
   * The plugin of each function {@link #tiers} lists, flattened over the tiers in the same order.
   */
  String[] pluginNames(ExtensionPoint<?> point, List<Tier> tiers) {
    Map<String, List<Object>> plugins = byPoint.getOrDefault(point, Map.of());
    List<String> out = new ArrayList<>();
    for (Tier tier : tiers) {
      for (PluginOption option : tier.plugins()) {
        List<Object> registered = plugins.get(option.name());
        if (registered == null || !FlagGates.enabled(point, option)) {
          continue;
        }
        for (int i = 0; i < registered.size(); i++) {
          out.add(option.name());
        }
      }
    }
    return out.toArray(new String[0]);
  }

  /** Every event handler, in registration order. */
  List<Object> eventHandlers() {
    return eventHandlers;
  }
}
