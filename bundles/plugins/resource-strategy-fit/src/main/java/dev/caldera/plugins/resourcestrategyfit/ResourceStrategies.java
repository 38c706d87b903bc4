package dev.caldera.plugins.resourcestrategyfit;

import dev.caldera.api.PluginArgumentException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code resources} configuration: a strategy per resource name, where a name is either exact
 * ({@code nvidia.com/gpu}) or a prefix pattern with one trailing {@code *} ({@code nvidia.com/*}).
 * An exact name wins over every pattern; among matching patterns the longest prefix wins.
 */
final class ResourceStrategies {

  /** Volcano's default: cpu and memory, both LeastAllocated with weight 1. */
  static final ResourceStrategies DEFAULT =
      new ResourceStrategies(
          orderedMap(
              "cpu",
              new ResourceStrategy(ScoringType.LEAST_ALLOCATED, 1),
              "memory",
              new ResourceStrategy(ScoringType.LEAST_ALLOCATED, 1)));

  private static final Set<String> ENTRY_KEYS = Set.of("type", "weight");

  private final Map<String, ResourceStrategy> byPattern;
  private final Map<String, ResourceStrategy> exact = new LinkedHashMap<>();
  private final List<String> prefixes = new ArrayList<>();
  private final List<ResourceStrategy> prefixStrategies = new ArrayList<>();

  /**
   * @param byPattern resource name or pattern → strategy; every pattern must be {@linkplain
   *     #checkPattern valid}
   */
  ResourceStrategies(Map<String, ResourceStrategy> byPattern) {
    this.byPattern = Collections.unmodifiableMap(new LinkedHashMap<>(byPattern));
    for (Map.Entry<String, ResourceStrategy> e : this.byPattern.entrySet()) {
      String key = e.getKey();
      if (key.endsWith("*")) {
        prefixes.add(key.substring(0, key.length() - 1));
        prefixStrategies.add(e.getValue());
      } else {
        exact.put(key, e.getValue());
      }
    }
  }

  /** The configured names and patterns with their strategies, in conf order. */
  Map<String, ResourceStrategy> byPattern() {
    return byPattern;
  }

  /**
   * The strategy for {@code resource}: its exact entry, else the matching pattern with the longest
   * prefix, else null (the resource is not scored).
   */
  ResourceStrategy lookup(String resource) {
    ResourceStrategy s = exact.get(resource);
    if (s != null) {
      return s;
    }
    int bestLength = -1;
    for (int i = 0; i < prefixes.size(); i++) {
      String prefix = prefixes.get(i);
      if (prefix.length() > bestLength && resource.startsWith(prefix)) {
        bestLength = prefix.length();
        s = prefixStrategies.get(i);
      }
    }
    return s;
  }

  /**
   * Reads the {@code resources} argument: a mapping from name or pattern to {@code {type, weight}}.
   * Absent or empty gives {@link #DEFAULT}. A missing type is LeastAllocated and a weight ≤ 0 is 1,
   * as in Volcano.
   *
   * @throws PluginArgumentException for a bad pattern, an unknown type or a value of the wrong type
   */
  static ResourceStrategies parse(String plugin, String key, Object value) {
    NestedArguments map = NestedArguments.of(plugin, key, value);
    if (map == null || map.values().isEmpty()) {
      return DEFAULT;
    }
    Map<String, ResourceStrategy> out = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : map.values().entrySet()) {
      String name = e.getKey().trim();
      String path = key + "[" + name + "]";
      checkPattern(plugin, path, name);
      NestedArguments entry = NestedArguments.of(plugin, path, e.getValue());
      ScoringType type = ScoringType.LEAST_ALLOCATED;
      int weight = 0;
      if (entry != null) {
        entry.refuseUnknownKeys(ENTRY_KEYS);
        type = parseType(plugin, entry.pathOf("type"), entry.getString("type", ""));
        weight = entry.getInt("weight", 0);
      }
      out.put(name, new ResourceStrategy(type, weight <= 0 ? 1 : weight));
    }
    return new ResourceStrategies(out);
  }

  /**
   * A scoring type as written in the conf or an annotation; empty means LeastAllocated.
   *
   * @throws PluginArgumentException for any other spelling
   */
  static ScoringType parseType(String plugin, String path, String text) {
    if (text.isEmpty()) {
      return ScoringType.LEAST_ALLOCATED;
    }
    ScoringType type = ScoringType.parse(text);
    if (type == null) {
      throw NestedArguments.wrong(plugin, path, text, "LeastAllocated or MostAllocated");
    }
    return type;
  }

  /**
   * Checks a resource name or pattern: no {@code *}, or exactly one at the end after a non-empty
   * prefix.
   *
   * @throws PluginArgumentException naming {@code path} otherwise
   */
  static void checkPattern(String plugin, String path, String name) {
    if (name.isEmpty()) {
      throw new PluginArgumentException(
          path, "plugin " + plugin + ": argument " + path + " has an empty resource name");
    }
    int star = name.indexOf('*');
    if (star < 0) {
      return;
    }
    if (name.equals("*")) {
      throw new PluginArgumentException(
          path,
          "plugin "
              + plugin
              + ": argument "
              + path
              + ": a lone \"*\" is not supported as a default strategy;"
              + " use a prefix pattern such as \"nvidia.com/*\"");
    }
    if (star != name.length() - 1) {
      throw new PluginArgumentException(
          path,
          "plugin "
              + plugin
              + ": argument "
              + path
              + ": \""
              + name
              + "\" is not a valid pattern; only one trailing \"*\" is supported,"
              + " e.g. \"nvidia.com/*\"");
    }
  }

  private static Map<String, ResourceStrategy> orderedMap(
      String k1, ResourceStrategy v1, String k2, ResourceStrategy v2) {
    Map<String, ResourceStrategy> m = new LinkedHashMap<>();
    m.put(k1, v1);
    m.put(k2, v2);
    return m;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ResourceStrategies r && r.byPattern.equals(byPattern);
  }

  @Override
  public int hashCode() {
    return byPattern.hashCode();
  }

  @Override
  public String toString() {
    return byPattern.toString();
  }
}
