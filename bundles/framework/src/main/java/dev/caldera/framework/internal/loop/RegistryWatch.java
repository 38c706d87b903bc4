package dev.caldera.framework.internal.loop;

import dev.caldera.framework.loop.LoopEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Notices plugins that appeared, went away or changed bundle between two looks at the registry, and
 * factories the registry refused for a name another provides.
 */
final class RegistryWatch {

  /** What changed: events to report, and the plugins loaded and unloaded (an update is both). */
  record Changes(List<LoopEvent> events, List<String> loaded, List<String> unloaded) {}

  private Map<String, String> last;
  private java.util.Set<String> lastRefusals = java.util.Set.of();

  /** A {@code PluginRefused} warning for each refusal that was not there at the previous call. */
  List<LoopEvent> refused(List<String> refusals) {
    List<LoopEvent> events = new ArrayList<>();
    for (String r : refusals) {
      if (!lastRefusals.contains(r)) {
        events.add(LoopEvent.warning("PluginRefused", r));
      }
    }
    lastRefusals = java.util.Set.copyOf(refusals);
    return events;
  }

  /** Compares {@code origins} (plugin → origin) with the previous call's. */
  Changes update(Map<String, String> origins) {
    List<LoopEvent> events = new ArrayList<>();
    List<String> loaded = new ArrayList<>();
    List<String> unloaded = new ArrayList<>();
    if (last == null) {
      loaded.addAll(origins.keySet());
      if (!origins.isEmpty()) {
        events.add(
            LoopEvent.normal(
                "PluginsLoaded",
                origins.size() + " plugins: " + String.join(", ", origins.keySet())));
      }
    } else {
      TreeSet<String> names = new TreeSet<>(last.keySet());
      names.addAll(origins.keySet());
      for (String name : names) {
        String before = last.get(name);
        String now = origins.get(name);
        if (before == null) {
          loaded.add(name);
          events.add(LoopEvent.normal("PluginLoaded", name + " from " + now));
        } else if (now == null) {
          unloaded.add(name);
          events.add(LoopEvent.normal("PluginUnloaded", name + " (was " + before + ")"));
        } else if (!Objects.equals(before, now)) {
          loaded.add(name);
          unloaded.add(name);
          events.add(LoopEvent.normal("PluginUpdated", name + ": " + before + " -> " + now));
        }
      }
    }
    last = new TreeMap<>(origins);
    return new Changes(events, loaded, unloaded);
  }
}
