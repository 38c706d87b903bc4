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
 * @param objects the file's objects as written, not admitted: a pod keeps a missing priority and
 *     has no implicit pod group, and no stand-in queue is added. {@link #cluster()} admits them at
 *     its first snapshot, the one place where a scenario's objects are admitted
 * @param rules what admitting the objects needs beyond them: the PriorityClasses' preemption
 *     policies and whether queues are hierarchical (the conf's capacity {@code enableHierarchy})
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
    ClusterState objects,
    EmbeddedCluster.Rules rules,
    int sessions,
    Expectations expect,
    Duration period,
    List<TimelineStep> timeline) {

  public Scenario {
    rules = rules == null ? EmbeddedCluster.Rules.NONE : rules;
    period = period == null ? Duration.ZERO : period;
    timeline = timeline == null ? List.of() : List.copyOf(timeline);
  }

  /**
   * A scenario whose clock does not move, whose cluster changes only by its decisions and whose
   * objects need no preemption policies and no hierarchical queues to be admitted.
   */
  public Scenario(
      Path file,
      String name,
      String description,
      Instant now,
      SchedulerConf conf,
      Map<String, String> policies,
      Map<String, NodeMetrics> nodeMetrics,
      ClusterState objects,
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
        objects,
        EmbeddedCluster.Rules.NONE,
        sessions,
        expect,
        Duration.ZERO,
        List.of());
  }

  /**
   * A new embedded cluster holding the scenario's objects, node metrics and policies, which admits
   * the objects under {@link #rules()} when its first snapshot is taken: what the first session
   * sees. Each call gives a cluster of its own.
   */
  public EmbeddedCluster cluster() {
    return new EmbeddedCluster(objects, nodeMetrics, policies, rules);
  }

  /**
   * This scenario run under another conf: its objects are admitted with the same preemption
   * policies, in hierarchical queues when {@code other} enables the capacity plugin's hierarchy.
   */
  public Scenario withConf(SchedulerConf other) {
    return new Scenario(
        file,
        name,
        description,
        now,
        other,
        policies,
        nodeMetrics,
        objects,
        new EmbeddedCluster.Rules(rules.preemptionPolicies(), other.hierarchyEnabled("capacity")),
        sessions,
        expect,
        period,
        timeline);
  }

  /** This scenario with other policy files (file name → text). */
  public Scenario withPolicies(Map<String, String> other) {
    return new Scenario(
        file,
        name,
        description,
        now,
        conf,
        other,
        nodeMetrics,
        objects,
        rules,
        sessions,
        expect,
        period,
        timeline);
  }

  /** The clock session {@code index} (from 1) sees. */
  public Instant now(int index) {
    return now.plus(period.multipliedBy(index - 1L));
  }
}
