package dev.caldera.plugins.capacitycard;

import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.PluginArguments;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The capacity-card plugin's arguments, translated once from the conf's spelling.
 *
 * @param cardUnlimitedCpuMemory pods (and jobs) that use cards are not held to the queue's CPU and
 *     memory quota
 * @param overCommitFactor enqueue admits up to quota × factor (at least 1); allocation stays within
 *     the quota
 * @param preferenceWeight how much a multi-model pod prefers nodes of its earlier-listed models (0
 *     turns the node order off)
 * @param reclaimPolicy the name of the reclaim policy to compile, or null
 * @param ownerKindServiceTypes owner kind → service type in the conf's order, meaning the shipped
 *     {@code tidal} policy with this map; null when not given
 */
record CardArguments(
    boolean cardUnlimitedCpuMemory,
    double overCommitFactor,
    double preferenceWeight,
    String reclaimPolicy,
    Map<String, String> ownerKindServiceTypes) {

  static final String CARD_UNLIMITED_CPU_MEMORY = "cardUnlimitedCpuMemory";
  static final String OVER_COMMIT_FACTOR = "overCommitFactor";
  static final String PREFERENCE_WEIGHT = "cardPreferenceWeight";
  static final String RECLAIM_POLICY = "reclaimPolicy";
  static final String OWNER_KIND_SERVICE_TYPES = "podOwnerReferenceToServiceType";

  static final double DEFAULT_OVER_COMMIT_FACTOR = 1;
  static final double DEFAULT_PREFERENCE_WEIGHT = 10;

  /** The service types the shipped tidal policy declares. */
  static final Set<String> SERVICE_TYPES = Set.of("inference", "training", "unknown");

  CardArguments {
    ownerKindServiceTypes =
        ownerKindServiceTypes == null
            ? null
            : Collections.unmodifiableMap(new LinkedHashMap<>(ownerKindServiceTypes));
  }

  /** The defaults: no exemption, factor 1, preference weight 10, no reclaim policy. */
  static CardArguments defaults() {
    return parse(PluginArguments.empty(CapacityCardPlugin.NAME));
  }

  /** Reads and validates the conf arguments; a wrong type or value names its key. */
  static CardArguments parse(PluginArguments arguments) {
    boolean unlimited = arguments.getBoolean(CARD_UNLIMITED_CPU_MEMORY, false);
    double factor = arguments.getDouble(OVER_COMMIT_FACTOR, DEFAULT_OVER_COMMIT_FACTOR);
    if (!(factor >= 1) || Double.isInfinite(factor)) {
      throw arguments.wrong(OVER_COMMIT_FACTOR, factor, "a finite number of at least 1");
    }
    double weight = arguments.getDouble(PREFERENCE_WEIGHT, DEFAULT_PREFERENCE_WEIGHT);
    if (!(weight >= 0) || Double.isInfinite(weight)) {
      throw arguments.wrong(PREFERENCE_WEIGHT, weight, "a finite number of at least 0");
    }
    String policy = arguments.getString(RECLAIM_POLICY, null);
    if (policy != null && policy.isBlank()) {
      throw arguments.wrong(RECLAIM_POLICY, policy, "the name of a policy");
    }
    Map<String, String> owners = ownerMap(arguments);
    if (policy != null && owners != null) {
      throw new PluginArgumentException(
          RECLAIM_POLICY,
          "plugin "
              + arguments.plugin()
              + ": give "
              + RECLAIM_POLICY
              + " or "
              + OWNER_KIND_SERVICE_TYPES
              + ", not both");
    }
    return new CardArguments(unlimited, factor, weight, policy, owners);
  }

  private static Map<String, String> ownerMap(PluginArguments arguments) {
    if (!arguments.has(OWNER_KIND_SERVICE_TYPES)) {
      return null;
    }
    Object raw = arguments.values().get(OWNER_KIND_SERVICE_TYPES);
    String expected = "a map of owner kind to service type (inference, training or unknown)";
    if (!(raw instanceof Map<?, ?> map)) {
      throw arguments.wrong(OWNER_KIND_SERVICE_TYPES, raw, expected);
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (!(e.getKey() instanceof String kind)
          || kind.isBlank()
          || !(e.getValue() instanceof String type)
          || !SERVICE_TYPES.contains(type)) {
        throw arguments.wrong(OWNER_KIND_SERVICE_TYPES, raw, expected);
      }
      out.put(kind, type);
    }
    return out;
  }
}
