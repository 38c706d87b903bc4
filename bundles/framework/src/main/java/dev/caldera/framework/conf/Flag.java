package dev.caldera.framework.conf;

/**
 * Volcano's per-plugin enable flags ({@code PluginOption}), with their YAML spelling (some are
 * {@code enable…}, some {@code enabled…}) and defaults: every flag is on when absent except {@code
 * enableHierarchy} and {@code enabledClusterOrder}.
 */
public enum Flag {
  JOB_ORDER("enableJobOrder", true),
  HIERARCHY("enableHierarchy", false),
  JOB_READY("enableJobReady", true),
  JOB_PIPELINED("enableJobPipelined", true),
  TASK_ORDER("enableTaskOrder", true),
  PREEMPTABLE("enablePreemptable", true),
  RECLAIMABLE("enableReclaimable", true),
  PREEMPTIVE("enablePreemptive", true),
  QUEUE_ORDER("enableQueueOrder", true),
  CLUSTER_ORDER("enabledClusterOrder", false),
  PREDICATE("enablePredicate", true),
  BEST_NODE("enableBestNode", true),
  NODE_ORDER("enableNodeOrder", true),
  TARGET_JOB("enableTargetJob", true),
  RESERVED_NODES("enableReservedNodes", true),
  JOB_ENQUEUED("enableJobEnqueued", true),
  VICTIM("enabledVictim", true),
  JOB_STARVING("enableJobStarving", true),
  OVERUSED("enabledOverused", true),
  ALLOCATABLE("enabledAllocatable", true),
  HYPER_NODE_ORDER("enabledHyperNodeOrder", true),
  SUB_JOB_READY("enabledSubJobReady", true),
  SUB_JOB_PIPELINED("enabledSubJobPipelined", true),
  SUB_JOB_ORDER("enabledSubJobOrder", true),
  HYPER_NODE_GRADIENT("enabledHyperNodeGradient", true);

  private final String key;
  private final boolean defaultValue;

  Flag(String key, boolean defaultValue) {
    this.key = key;
    this.defaultValue = defaultValue;
  }

  /** The YAML key. */
  public String key() {
    return key;
  }

  /** The value when the key is absent. */
  public boolean defaultValue() {
    return defaultValue;
  }

  /**
   * The flag spelled {@code key}, or null. {@code enabledHierarchy} is accepted for {@code
   * enableHierarchy}, a spelling found in published Volcano confs.
   */
  public static Flag byKey(String key) {
    if (key.equals("enabledHierarchy")) {
      return HIERARCHY;
    }
    for (Flag f : values()) {
      if (f.key.equals(key)) {
        return f;
      }
    }
    return null;
  }
}
