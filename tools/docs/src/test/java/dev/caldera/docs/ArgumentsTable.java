package dev.caldera.docs;

import dev.caldera.api.PluginArguments;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The conf arguments a plugin's {@code *Arguments} record reads: one row per record component, with
 * the key and meaning from the component's {@code @param} text, the Java type, and the default the
 * record's own reader ({@code from} or {@code parse}) gives for no arguments.
 */
final class ArgumentsTable {

  /** One argument. {@code key} is null when the text names no conf key. */
  record Row(String key, String component, String type, String defaultValue, String meaning) {}

  private static final Pattern LEADING_KEY = Pattern.compile("^\\{@(?:value|code)\\s+([^{}\\s]+)}");

  private ArgumentsTable() {}

  /** The rows of {@code type}, a record, whose source text is {@code source}. */
  static List<Row> rows(Class<?> type, String source, String plugin) {
    Map<String, String> params = Javadoc.params(Javadoc.ofType(source, type.getSimpleName()));
    Object defaults = defaults(type, plugin);
    List<Row> rows = new ArrayList<>();
    for (RecordComponent c : type.getRecordComponents()) {
      String text = params.getOrDefault(c.getName(), "");
      String key = null;
      Matcher k = LEADING_KEY.matcher(text);
      if (k.find()) {
        String ref = k.group(1);
        key = text.startsWith("{@value") ? Javadoc.constant(type, ref) : ref;
        // the key is in its own column: the meaning starts after it
        text = text.substring(k.end()).replaceFirst("^[\\s,:;]+", "");
      } else {
        key = constantFor(type, c.getName());
      }
      String meaning = Javadoc.cell(Javadoc.markdown(text, type));
      rows.add(
          new Row(
              key,
              c.getName(),
              typeName(c.getGenericType().getTypeName()),
              defaults == null ? null : value(component(defaults, c)),
              meaning));
    }
    return rows;
  }

  /**
   * The value of the record's String constant named after {@code component} in upper snake case
   * ({@code overCommitFactor} → {@code OVER_COMMIT_FACTOR}), the key the reader uses, or null.
   */
  private static String constantFor(Class<?> type, String component) {
    String name = component.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT);
    try {
      Field f = type.getDeclaredField(name);
      if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
        f.setAccessible(true);
        return (String) f.get(null);
      }
    } catch (NoSuchFieldException e) {
      return null;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(type.getName() + "." + name + ": " + e, e);
    }
    return null;
  }

  /** Simple names: {@code java.util.Map<java.lang.String, ...>} as {@code Map<String, ...>}. */
  static String typeName(String name) {
    return name.replaceAll("(?:[a-z_][\\w]*\\.)+", "").replace('$', '.');
  }

  /**
   * What the record's static reader (a method taking {@link PluginArguments} and returning the
   * record) gives for no arguments, or null if it has none or refuses them (a required argument).
   */
  private static Object defaults(Class<?> type, String plugin) {
    for (Method m : type.getDeclaredMethods()) {
      if (Modifier.isStatic(m.getModifiers())
          && m.getReturnType() == type
          && m.getParameterCount() == 1
          && m.getParameterTypes()[0] == PluginArguments.class) {
        try {
          m.setAccessible(true);
          return m.invoke(null, PluginArguments.empty(plugin));
        } catch (InvocationTargetException e) {
          return null;
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException(type.getName() + "." + m.getName() + ": " + e, e);
        }
      }
    }
    return null;
  }

  private static Object component(Object record, RecordComponent c) {
    try {
      Method accessor = c.getAccessor();
      accessor.setAccessible(true);
      return accessor.invoke(record);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(c + ": " + e, e);
    }
  }

  /** A default as the conf would spell it; null for a value that only the meaning can explain. */
  static String value(Object v) {
    if (v == null) {
      return "none";
    }
    if (v instanceof Collection<?> c && c.isEmpty() || v instanceof Map<?, ?> m && m.isEmpty()) {
      return "none";
    }
    if (v instanceof Duration d) {
      return goDuration(d);
    }
    if (v instanceof Double || v instanceof Float) {
      return new BigDecimal(v.toString()).stripTrailingZeros().toPlainString();
    }
    if (v instanceof Number || v instanceof Boolean || v instanceof Enum<?>) {
      return String.valueOf(v);
    }
    if (v instanceof String s) {
      return s.isEmpty() ? "\"\"" : s;
    }
    return null;
  }

  private static String goDuration(Duration d) {
    long ms = d.toMillis();
    if (ms == 0) {
      return "0s";
    }
    if (ms % 3_600_000 == 0) {
      return ms / 3_600_000 + "h";
    }
    if (ms % 60_000 == 0) {
      return ms / 60_000 + "m";
    }
    return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
  }
}
