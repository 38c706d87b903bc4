package dev.caldera.framework.internal.session;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.extension.NodeLocality;
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
  private final Map<ExtensionPoint<?>, Map<String, NodeLocality>> localities = new HashMap<>();

  /** An {@link Extensions} bound to one plugin name. */
  Extensions forPlugin(String plugin) {
    return new Extensions() {
      @Override
      public <T> void add(ExtensionPoint<T> point, T fn) {
        register(point, fn);
      }

      @Override
      public <T> void add(ExtensionPoint<T> point, T fn, NodeLocality locality) {
        Extensions.super.add(point, fn, locality);
        localities.computeIfAbsent(point, p -> new HashMap<>()).put(plugin, locality);
      }

      private <T> void register(ExtensionPoint<T> point, T fn) {
        // A registration without a locality replaces an earlier one with it.
        Map<String, NodeLocality> declared = localities.get(point);
        if (declared != null) {
          declared.remove(plugin);
        }
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

  /**
   * The node locality of each function {@link #tiers} lists, flattened like {@link #pluginNames};
   * null where the plugin registered none.
   */
  NodeLocality[] localities(ExtensionPoint<?> point, List<Tier> tiers) {
    Map<String, NodeLocality> declared = localities.getOrDefault(point, Map.of());
    String[] plugins = pluginNames(point, tiers);
    NodeLocality[] out = new NodeLocality[plugins.length];
    for (int i = 0; i < plugins.length; i++) {
      out[i] = declared.get(plugins[i]);
    }
    return out;
  }

  /** Every event handler, in registration order. */
  List<Object> eventHandlers() {
    return eventHandlers;
  }
}
