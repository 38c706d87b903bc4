package dev.caldera.plugins.resourcestrategyfit;

import dev.caldera.api.PluginArgumentException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Typed reads of the nested maps under this plugin's {@code arguments} ({@code resources}, {@code
 * sra}, {@code proportional}), with the same type rules as {@link dev.caldera.api.PluginArguments}
 * and errors that name the full path of the value, e.g. {@code sra.weight} or {@code
 * resources[nvidia.com/gpu].type}.
 */
final class NestedArguments {

  private final String plugin;
  private final String path;
  private final Map<String, Object> values;

  private NestedArguments(String plugin, String path, Map<String, Object> values) {
    this.plugin = plugin;
    this.path = path;
    this.values = values;
  }

  /**
   * The map at {@code path}, or null when {@code value} is null.
   *
   * @throws PluginArgumentException if {@code value} is not a map with string keys
   */
  static NestedArguments of(String plugin, String path, Object value) {
    if (value == null) {
      return null;
    }
    if (!(value instanceof Map<?, ?> raw)) {
      throw wrong(plugin, path, value, "a mapping");
    }
    Map<String, Object> values = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : raw.entrySet()) {
      if (!(e.getKey() instanceof String key)) {
        throw wrong(plugin, path, value, "a mapping with string keys");
      }
      values.put(key, e.getValue());
    }
    return new NestedArguments(plugin, path, values);
  }

  /** The entries, in the order given. */
  Map<String, Object> values() {
    return values;
  }

  /** The path of a key in this map, e.g. {@code sra.weight}. */
  String pathOf(String key) {
    return path + "." + key;
  }

  /** Refuses keys outside {@code known}, so that a misspelt key does not go unnoticed. */
  void refuseUnknownKeys(Set<String> known) {
    for (String key : values.keySet()) {
      if (!known.contains(key)) {
        throw new PluginArgumentException(
            pathOf(key),
            "plugin "
                + plugin
                + ": unknown argument "
                + pathOf(key)
                + ", expected one of "
                + String.join(", ", known));
      }
    }
  }

  /** An integer at {@code key}. */
  int getInt(String key, int defaultValue) {
    return toInt(plugin, pathOf(key), values.get(key), defaultValue);
  }

  /** A boolean at {@code key}. */
  boolean getBoolean(String key, boolean defaultValue) {
    Object v = values.get(key);
    if (v == null) {
      return defaultValue;
    }
    if (v instanceof Boolean b) {
      return b;
    }
    if (v instanceof String s) {
      String t = s.trim().toLowerCase(Locale.ROOT);
      if (t.equals("true") || t.equals("false")) {
        return Boolean.parseBoolean(t);
      }
    }
    throw wrong(plugin, pathOf(key), v, "true or false");
  }

  /** A string at {@code key}. */
  String getString(String key, String defaultValue) {
    Object v = values.get(key);
    if (v == null) {
      return defaultValue;
    }
    if (v instanceof String s) {
      return s;
    }
    throw wrong(plugin, pathOf(key), v, "a string");
  }

  /** The map at {@code key}, or null when absent. */
  NestedArguments getMap(String key) {
    return of(plugin, pathOf(key), values.get(key));
  }

  /** An integer at {@code path}, accepting integral numbers and strings of integers. */
  static int toInt(String plugin, String path, Object v, int defaultValue) {
    if (v == null) {
      return defaultValue;
    }
    if (v instanceof Integer || v instanceof Long || v instanceof Short) {
      long l = ((Number) v).longValue();
      if (l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE) {
        return (int) l;
      }
    }
    if (v instanceof String s) {
      try {
        return Integer.parseInt(s.trim());
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw wrong(plugin, path, v, "an integer");
  }

  /** A number at {@code path}, accepting any number and numeric strings. */
  static double toDouble(String plugin, String path, Object v, double defaultValue) {
    if (v == null) {
      return defaultValue;
    }
    if (v instanceof Number n && Double.isFinite(n.doubleValue())) {
      return n.doubleValue();
    }
    if (v instanceof String s) {
      try {
        double d = Double.parseDouble(s.trim());
        if (Double.isFinite(d)) {
          return d;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw wrong(plugin, path, v, "a number");
  }

  static PluginArgumentException wrong(String plugin, String path, Object value, String expected) {
    String shown = value instanceof String ? "\"" + value + "\"" : String.valueOf(value);
    return new PluginArgumentException(
        path,
        "plugin " + plugin + ": argument " + path + " is " + shown + ", expected " + expected);
  }
}
