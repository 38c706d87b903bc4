package dev.caldera.framework.internal.session;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.framework.conf.Flag;
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
 * and the entry's enable flag for that point is on.
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
        if (registered == null || !enabled(point, option)) {
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

  /** Every event handler, in registration order. */
  List<Object> eventHandlers() {
    return eventHandlers;
  }

  /** Which flag gates which point (Volcano's {@code session_plugins.go}); some points have none. */
  static boolean enabled(ExtensionPoint<?> point, PluginOption o) {
    if (point == ExtensionPoint.JOB_ORDER) {
      return o.isEnabled(Flag.JOB_ORDER);
    } else if (point == ExtensionPoint.QUEUE_ORDER) {
      return o.isEnabled(Flag.QUEUE_ORDER);
    } else if (point == ExtensionPoint.TASK_ORDER) {
      return o.isEnabled(Flag.TASK_ORDER);
    } else if (point == ExtensionPoint.PREDICATE
        || point == ExtensionPoint.PRE_PREDICATE
        || point == ExtensionPoint.SIMULATE_PREDICATE) {
      return o.isEnabled(Flag.PREDICATE);
    } else if (point == ExtensionPoint.NODE_ORDER || point == ExtensionPoint.BATCH_NODE_ORDER) {
      return o.isEnabled(Flag.NODE_ORDER);
    } else if (point == ExtensionPoint.PREEMPTABLE) {
      return o.isEnabled(Flag.PREEMPTABLE);
    } else if (point == ExtensionPoint.RECLAIMABLE) {
      return o.isEnabled(Flag.RECLAIMABLE);
    } else if (point == ExtensionPoint.PREEMPTIVE) {
      return o.isEnabled(Flag.PREEMPTIVE);
    } else if (point == ExtensionPoint.OVERUSED) {
      return o.isEnabled(Flag.OVERUSED);
    } else if (point == ExtensionPoint.ALLOCATABLE
        || point == ExtensionPoint.SIMULATE_ALLOCATABLE) {
      return o.isEnabled(Flag.ALLOCATABLE);
    } else if (point == ExtensionPoint.JOB_ENQUEUEABLE || point == ExtensionPoint.JOB_ENQUEUED) {
      return o.isEnabled(Flag.JOB_ENQUEUED);
    } else if (point == ExtensionPoint.JOB_READY) {
      return o.isEnabled(Flag.JOB_READY);
    } else if (point == ExtensionPoint.JOB_PIPELINED) {
      return o.isEnabled(Flag.JOB_PIPELINED);
    } else if (point == ExtensionPoint.JOB_STARVING) {
      return o.isEnabled(Flag.JOB_STARVING);
    } else if (point == ExtensionPoint.VICTIM_TASKS) {
      return o.isEnabled(Flag.VICTIM);
    } else if (point == ExtensionPoint.SIMULATE_ADD_TASK
        || point == ExtensionPoint.SIMULATE_REMOVE_TASK) {
      return o.isEnabled(Flag.PREEMPTABLE) || o.isEnabled(Flag.ALLOCATABLE);
    }
    // JOB_VALID, VICTIM_QUEUE_ORDER and event handlers have no flag.
    return true;
  }
}
