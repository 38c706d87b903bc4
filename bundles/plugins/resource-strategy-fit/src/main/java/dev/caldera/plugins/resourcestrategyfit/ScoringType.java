package dev.caldera.plugins.resourcestrategyfit;

/** Kubernetes' {@code ScoringStrategyType}s that this plugin supports. */
enum ScoringType {
  /** Prefers the node the task would leave with the most free: {@code (cap − used) / cap}. */
  LEAST_ALLOCATED("LeastAllocated"),
  /** Prefers the node the task would fill most: {@code used / cap}. */
  MOST_ALLOCATED("MostAllocated");

  private final String spelling;

  ScoringType(String spelling) {
    this.spelling = spelling;
  }

  /** The conf and annotation spelling, e.g. {@code MostAllocated}. */
  String spelling() {
    return spelling;
  }

  /** The type spelt exactly {@code text}, or null. */
  static ScoringType parse(String text) {
    for (ScoringType t : values()) {
      if (t.spelling.equals(text)) {
        return t;
      }
    }
    return null;
  }
}
