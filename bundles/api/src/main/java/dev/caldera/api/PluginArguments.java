package dev.caldera.api;

import java.util.Map;
import java.util.TreeMap;

/**
 * A plugin's {@code arguments} from the conf, with typed readers that follow Volcano's {@code
 * framework.Arguments} (ints accept only integers, floats accept ints, bools accept "true"/"false"
 * strings) but fail with a {@link PluginArgumentException} on a wrong type instead of ignoring it.
 *
 * @param values the raw YAML values
 * @param hierarchyEnabled the plugin entry's {@code enableHierarchy} flag
 */
public record PluginArguments(String plugin, Map<String, Object> values, boolean hierarchyEnabled) {

  public PluginArguments {
    values = values == null ? Map.of() : new TreeMap<>(values);
  }

  /** No arguments. */
  public static PluginArguments empty(String plugin) {
    return new PluginArguments(plugin, Map.of(), false);
  }

  /** Whether {@code key} is given. */
  public boolean has(String key) {
    return values.containsKey(key) && values.get(key) != null;
  }

  /** An integer argument. */
  public int getInt(String key, int defaultValue) {
    Object v = values.get(key);
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
    throw wrong(key, v, "an integer");
  }

  /** A number argument (integers accepted). */
  public double getDouble(String key, double defaultValue) {
    Object v = values.get(key);
    if (v == null) {
      return defaultValue;
    }
    if (v instanceof Number n) {
      return n.doubleValue();
    }
    if (v instanceof String s) {
      try {
        return Double.parseDouble(s.trim());
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw wrong(key, v, "a number");
  }

  /** A boolean argument ({@code true}/{@code false}, or those words as strings). */
  public boolean getBoolean(String key, boolean defaultValue) {
    Object v = values.get(key);
    if (v == null) {
      return defaultValue;
    }
    if (v instanceof Boolean b) {
      return b;
    }
    if (v instanceof String s) {
      String t = s.trim().toLowerCase(java.util.Locale.ROOT);
      if (t.equals("true") || t.equals("false")) {
        return Boolean.parseBoolean(t);
      }
    }
    throw wrong(key, v, "true or false");
  }

  /** A string argument. */
  public String getString(String key, String defaultValue) {
    Object v = values.get(key);
    if (v == null) {
      return defaultValue;
    }
    if (v instanceof String s) {
      return s;
    }
    if (v instanceof Number || v instanceof Boolean) {
      return v.toString();
    }
    throw wrong(key, v, "a string");
  }

  /** A fresh error for {@code key} saying what was expected. */
  public PluginArgumentException wrong(String key, Object value, String expected) {
    return new PluginArgumentException(
        key,
        "plugin "
            + plugin
            + ": argument "
            + key
            + " is "
            + describe(value)
            + ", expected "
            + expected);
  }

  private static String describe(Object value) {
    return value instanceof String ? "\"" + value + "\"" : String.valueOf(value);
  }
}
