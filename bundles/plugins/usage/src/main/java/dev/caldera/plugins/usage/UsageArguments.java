package dev.caldera.plugins.usage;

import dev.caldera.api.PluginArguments;
import dev.caldera.api.resource.Quantity;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code usage} plugin's arguments, with Volcano's keys and defaults. {@value #THRESHOLDS} and
 * {@value #ESTIMATOR} are nested mappings, as in Volcano's conf:
 *
 * <pre>
 * arguments:
 *   usage.weight: 5
 *   thresholds: {cpu: 80, mem: 80}
 *   estimator: {request_ratio: 0.7, be_cpu: 250m, be_mem: 200Mi}
 * </pre>
 *
 * @param usageWeight {@code usage.weight}, default 5
 * @param cpuWeight {@code cpu.weight}, default 1; a negative value becomes 1
 * @param memoryWeight {@code memory.weight}, default 1; a negative value becomes 1
 * @param cpuThreshold {@code thresholds.cpu} in percent, default 80, within 0..100
 * @param memoryThreshold {@code thresholds.mem} in percent, default 80, within 0..100
 * @param requestRatio {@code estimator.request_ratio}, default 0.7, within 0..1
 * @param burstRatio {@code estimator.burst_ratio}, default 0, within 0..1
 * @param riskThreshold {@code estimator.risk_threshold}, default 0.6, within 0..1
 * @param riskFactor {@code estimator.risk_factor}, default 1.2, at least 1
 * @param bestEffortMilliCpu {@code estimator.be_cpu}, default 250m, a non-negative quantity (a bare
 *     number counts whole cores)
 * @param bestEffortMemory {@code estimator.be_mem} in bytes, default 200Mi, a non-negative quantity
 *     (a bare number counts bytes)
 */
public record UsageArguments(
    int usageWeight,
    int cpuWeight,
    int memoryWeight,
    double cpuThreshold,
    double memoryThreshold,
    double requestRatio,
    double burstRatio,
    double riskThreshold,
    double riskFactor,
    double bestEffortMilliCpu,
    double bestEffortMemory) {

  public static final String USAGE_WEIGHT = "usage.weight";
  public static final String CPU_WEIGHT = "cpu.weight";
  public static final String MEMORY_WEIGHT = "memory.weight";
  public static final String THRESHOLDS = "thresholds";
  public static final String ESTIMATOR = "estimator";

  /** Volcano's defaults. */
  public static final UsageArguments DEFAULTS =
      new UsageArguments(5, 1, 1, 80, 80, 0.7, 0, 0.6, 1.2, 250, 200L * 1024 * 1024);

  /**
   * Reads and validates the arguments; unknown keys are ignored, as in Volcano.
   *
   * @throws dev.caldera.api.PluginArgumentException naming the first key with a wrong type or a
   *     value out of range (Volcano logs those and keeps the default)
   */
  public static UsageArguments from(PluginArguments args) {
    int usageWeight = args.getInt(USAGE_WEIGHT, DEFAULTS.usageWeight);
    int cpuWeight = args.getInt(CPU_WEIGHT, DEFAULTS.cpuWeight);
    int memoryWeight = args.getInt(MEMORY_WEIGHT, DEFAULTS.memoryWeight);
    PluginArguments thresholds = section(args, THRESHOLDS, "{cpu: 80, mem: 80}");
    PluginArguments estimator =
        section(args, ESTIMATOR, "{request_ratio: 0.7, be_cpu: 250m, be_mem: 200Mi}");
    return new UsageArguments(
        usageWeight,
        cpuWeight < 0 ? DEFAULTS.cpuWeight : cpuWeight,
        memoryWeight < 0 ? DEFAULTS.memoryWeight : memoryWeight,
        bounded(thresholds, THRESHOLDS + ".cpu", DEFAULTS.cpuThreshold, 0, 100),
        bounded(thresholds, THRESHOLDS + ".mem", DEFAULTS.memoryThreshold, 0, 100),
        bounded(estimator, ESTIMATOR + ".request_ratio", DEFAULTS.requestRatio, 0, 1),
        bounded(estimator, ESTIMATOR + ".burst_ratio", DEFAULTS.burstRatio, 0, 1),
        bounded(estimator, ESTIMATOR + ".risk_threshold", DEFAULTS.riskThreshold, 0, 1),
        bounded(
            estimator,
            ESTIMATOR + ".risk_factor",
            DEFAULTS.riskFactor,
            1,
            Double.POSITIVE_INFINITY),
        quantity(estimator, ESTIMATOR + ".be_cpu", DEFAULTS.bestEffortMilliCpu, true),
        quantity(estimator, ESTIMATOR + ".be_mem", DEFAULTS.bestEffortMemory, false));
  }

  /**
   * The nested mapping under {@code key} as arguments whose keys are prefixed with {@code key.}, so
   * that errors name e.g. {@code thresholds.cpu}.
   */
  private static PluginArguments section(PluginArguments args, String key, String example) {
    Object value = args.values().get(key);
    Map<String, Object> prefixed = new TreeMap<>();
    if (value == null) {
      return new PluginArguments(args.plugin(), prefixed, false);
    }
    if (!(value instanceof Map<?, ?> map)) {
      throw args.wrong(key, value, "a mapping such as " + example);
    }
    for (Map.Entry<?, ?> e : map.entrySet()) {
      prefixed.put(key + "." + e.getKey(), e.getValue());
    }
    return new PluginArguments(args.plugin(), prefixed, false);
  }

  private static double bounded(
      PluginArguments args, String key, double defaultValue, double min, double max) {
    double v = args.getDouble(key, defaultValue);
    if (!(v >= min && v <= max)) {
      String range =
          max == Double.POSITIVE_INFINITY
              ? "a number of at least " + format(min)
              : "a number from " + format(min) + " to " + format(max);
      throw args.wrong(key, args.values().get(key), range);
    }
    return v;
  }

  private static String format(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }

  /**
   * A quantity as Volcano's {@code Arguments.GetQuantity} reads it: a string is a Kubernetes
   * quantity (lower-case binary suffixes such as {@code mi} accepted), an integer counts whole
   * units and a float is truncated to thousandths. Returns milli-units for cpu, else units.
   */
  private static double quantity(
      PluginArguments args, String key, double defaultValue, boolean milli) {
    Object v = args.values().get(key);
    if (v == null) {
      return defaultValue;
    }
    String expected = "a non-negative quantity such as " + (milli ? "250m" : "200Mi");
    Quantity q;
    if (v instanceof String s) {
      try {
        q = Quantity.parse(normalizeBinarySuffix(s.trim()));
      } catch (IllegalArgumentException e) {
        throw args.wrong(key, v, expected);
      }
    } else if (v instanceof Integer || v instanceof Long || v instanceof Short) {
      q = Quantity.of(((Number) v).longValue());
    } else if (v instanceof Double || v instanceof Float) {
      q = Quantity.ofMilli((long) (((Number) v).doubleValue() * 1000));
    } else {
      throw args.wrong(key, v, expected);
    }
    double value = milli ? q.milliValue() : q.value();
    if (value < 0) {
      throw args.wrong(key, v, expected);
    }
    return value;
  }

  private static String normalizeBinarySuffix(String s) {
    String lower = s.toLowerCase(Locale.ROOT);
    for (String suffix : new String[] {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}) {
      if (lower.endsWith(suffix.toLowerCase(Locale.ROOT))) {
        return s.substring(0, s.length() - 2) + suffix;
      }
    }
    return s;
  }
}
