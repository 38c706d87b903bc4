package dev.caldera.sim;

import dev.caldera.api.model.NodeMetrics;
import dev.caldera.framework.conf.SchedulerConf;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

/**
 * A loaded scenario file.
 *
 * @param now the clock every session sees: the file's {@code now}, else the latest timestamp
 *     written in its objects, else 2026-01-01T00:00:00Z (so the same file always runs the same)
 * @param policies policy file name → source text, in file order
 * @param nodeMetrics node name → usage, in file order
 * @param initialState the cluster after admission (priorities filled, implicit pod groups and
 *     default queues added)
 * @param expect null when the file has no {@code expect:}
 */
public record Scenario(
    Path file,
    String name,
    String description,
    Instant now,
    SchedulerConf conf,
    Map<String, String> policies,
    Map<String, NodeMetrics> nodeMetrics,
    ClusterState initialState,
    int sessions,
    Expectations expect) {}
