package dev.caldera.runtime.bench;

/**
 * What one measured session did and how long it took.
 *
 * @param millis wall time from the snapshot being taken to the decisions being ready
 * @param tasksConsidered tasks that went through node filtering
 * @param avgNodesFilteredPerTask predicate evaluations per considered task
 * @param avgNodesScoredPerTask score evaluations per considered task
 * @param avgNodesReusedPerTask per-node answers allocate reused per considered task instead of
 *     evaluating them afresh (filtered + reused is what a full scan would have evaluated)
 */
public record SessionMeasurement(
    int index,
    double millis,
    int podsBound,
    int podsEvicted,
    double podsPerSecond,
    long tasksConsidered,
    double avgNodesFilteredPerTask,
    double avgNodesScoredPerTask,
    double avgNodesReusedPerTask) {}
