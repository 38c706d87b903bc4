package dev.caldera.sim;

import dev.caldera.api.model.NodeMetrics;
import dev.caldera.framework.conf.SchedulerConf;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A loaded scenario file.
 *
 * @param now the clock every session sees: the file's {@code now}, else the latest timestamp
 *     written in its objects, else 2026-01-01T00:00:00Z (so the same file always runs the same)
 * @param policies policy file name → source text, in file order
 * @param nodeMetrics node name → usage, in file order
 * @param initialState the cluster after admission (priorities filled, implicit pod groups and
 *     default queues added), as an {@link EmbeddedCluster} holding the file's objects shows them
 *     before its first session: the embedded cluster's snapshot is where objects are admitted
 * @param expect null when the file has no {@code expect:}
 * @param period how far the clock moves from one session to the next ({@code period:}, zero when
 *     not given: every session sees {@code now})
 * @param timeline what changes in the cluster before which session, in session order
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
    Expectations expect,
    Duration period,
    List<TimelineStep> timeline) {

  public Scenario {
    period = period == null ? Duration.ZERO : period;
    timeline = timeline == null ? List.of() : List.copyOf(timeline);
  }

  /** A scenario whose clock does not move and whose cluster changes only by its decisions. */
  public Scenario(
      Path file,
      String name,
      String description,
      Instant now,
      SchedulerConf conf,
      Map<String, String> policies,
      Map<String, NodeMetrics> nodeMetrics,
      ClusterState initialState,
      int sessions,
      Expectations expect) {
    this(
        file,
        name,
        description,
        now,
        conf,
        policies,
        nodeMetrics,
        initialState,
        sessions,
        expect,
        Duration.ZERO,
        List.of());
  }

  /** The clock session {@code index} (from 1) sees. */
  public Instant now(int index) {
    return now.plus(period.multipliedBy(index - 1L));
  }
}
