package dev.caldera.plugins.resourcestrategyfit;

/**
 * How one resource is scored: its strategy and its weight among the task's resources.
 *
 * @param weight at least 1 once read from the conf (Volcano turns weights ≤ 0 into 1)
 */
record ResourceStrategy(ScoringType type, int weight) {}
