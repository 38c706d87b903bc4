package dev.caldera.plugins.capacity;

import dev.caldera.api.PluginArguments;

/**
 * The capacity plugin's arguments, translated once from Volcano's spelling.
 *
 * @param ancestorReclaimLevel how many levels above a leaf queue may grant or check reclaim (0
 *     turns it off); a negative value in the conf becomes 0, as in Volcano
 * @param dynamicResourceAllocation {@code capacity.DynamicResourceAllocationEnable}: accepted for
 *     compatibility; device-class quotas are not implemented
 * @param draConsumableCapacity {@code capacity.DRAConsumableCapacityEnable}: accepted likewise
 * @param hierarchy the entry's {@code enableHierarchy} (or {@code enabledHierarchy}) flag
 */
record CapacityArguments(
    int ancestorReclaimLevel,
    boolean dynamicResourceAllocation,
    boolean draConsumableCapacity,
    boolean hierarchy) {

  static final String ANCESTOR_RECLAIM_LEVEL = "ancestorReclaimLevel";
  static final String DRA_ENABLE = "capacity.DynamicResourceAllocationEnable";
  static final String DRA_CONSUMABLE_CAPACITY_ENABLE = "capacity.DRAConsumableCapacityEnable";

  /** Volcano's defaults follow the Kubernetes feature gates of v1.36: DRA on, consumable off. */
  static final boolean DRA_DEFAULT = true;

  static final boolean DRA_CONSUMABLE_CAPACITY_DEFAULT = false;

  CapacityArguments {
    ancestorReclaimLevel = Math.max(0, ancestorReclaimLevel);
  }

  /** Flat mode with Volcano's defaults. */
  static CapacityArguments flat() {
    return new CapacityArguments(0, DRA_DEFAULT, DRA_CONSUMABLE_CAPACITY_DEFAULT, false);
  }

  /** Reads and validates the conf arguments; a value of the wrong type names its key. */
  static CapacityArguments parse(PluginArguments arguments) {
    return new CapacityArguments(
        arguments.getInt(ANCESTOR_RECLAIM_LEVEL, 0),
        arguments.getBoolean(DRA_ENABLE, DRA_DEFAULT),
        arguments.getBoolean(DRA_CONSUMABLE_CAPACITY_ENABLE, DRA_CONSUMABLE_CAPACITY_DEFAULT),
        arguments.hierarchyEnabled());
  }
}
