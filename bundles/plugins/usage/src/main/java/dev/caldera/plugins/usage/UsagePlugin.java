package dev.caldera.plugins.usage;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.Session;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.NodeMetrics;
import dev.caldera.api.model.PodCondition;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Volcano's {@code usage} plugin (real-load aware scheduling). The predicate refuses nodes whose
 * measured cpu or memory use is above the thresholds; the node order prefers nodes with a low
 * composite load, which adds to the measured load a "shadow" estimate of the tasks placed recently
 * enough that the metrics cannot show them. Metrics older than five minutes (relative to the
 * session clock) are ignored: the predicate passes and the score is 0. Usage comes from the
 * cluster's metrics or, with {@code usage.metrics.address}, from a Prometheus server ({@link
 * PrometheusMetrics}).
 */
public final class UsagePlugin implements Plugin {

  /** The registration name. */
  public static final String NAME = "usage";

  /** Metrics older than this are ignored ({@code MetricsActiveTime}). */
  static final Duration METRICS_ACTIVE_TIME = Duration.ofMinutes(5);

  /**
   * The monitoring delay window: a Running task started less than this ago is shadow load. Volcano
   * reads it from the scheduler conf's {@code metrics.interval}, which plugins do not see here, so
   * its default is used.
   */
  static final Duration METRICS_INTERVAL = Duration.ofSeconds(30);

  static final String CPU_OVERLOAD = "the CPU load of the node exceeds the upper limit.";
  static final String MEMORY_OVERLOAD = "the memory load of the node exceeds the upper limit.";

  /** The reason of the Warning event when Prometheus cannot be read. */
  static final String METRICS_UNAVAILABLE = "MetricsUnavailable";

  private final UsageArguments arguments;
  private final UsageMetricsArguments metricsArguments;
  private final MetricsProblems problems;

  private Session session;
  private ShadowLoad shadow = new ShadowLoad();
  private Map<String, NodeLoad> byName = Map.of();
  private NodeLoad[] byIndex = new NodeLoad[0];

  /** A plugin reading the cluster's metrics (metrics-server, or a scenario's nodeMetrics). */
  public UsagePlugin(UsageArguments arguments) {
    this(arguments, UsageMetricsArguments.CLUSTER, new MetricsProblems());
  }

  /**
   * A plugin reading usage where {@code metricsArguments} say.
   *
   * @param problems what was last reported about each Prometheus server, shared by the plugins one
   *     factory makes so that a server that stays down is reported once
   */
  UsagePlugin(
      UsageArguments arguments, UsageMetricsArguments metricsArguments, MetricsProblems problems) {
    this.arguments = arguments;
    this.metricsArguments = metricsArguments;
    this.problems = problems;
  }

  @Override
  public String name() {
    return NAME;
  }

  /** What the plugin knows of a node: capacity, metrics and shadow load. */
  private static final class NodeLoad extends ShadowLoad.Node {
    final double cpuCapacity;
    final double memoryCapacity;

    /** The measured percentages, 0 without metrics (used even when stale, as in Volcano). */
    final double cpuPercent;

    final double memoryPercent;
    final boolean fresh;

    NodeLoad(NodeInfo node, NodeMetrics metrics, Instant now) {
      cpuCapacity = node.capacity().milliCpu();
      memoryCapacity = node.capacity().memory();
      cpuPercent = metrics == null ? 0 : metrics.cpuPercent();
      memoryPercent = metrics == null ? 0 : metrics.memoryPercent();
      fresh =
          metrics != null
              && metrics.updated() != null
              && Duration.between(metrics.updated(), now).compareTo(METRICS_ACTIVE_TIME) <= 0;
    }
  }

  @Override
  public void onSessionOpen(Session session, Extensions extensions) {
    this.session = session;
    shadow = new ShadowLoad();
    Map<String, NodeMetrics> metrics =
        metricsArguments.prometheus()
            ? prometheusMetrics(session)
            : session.cluster().nodeMetrics();
    List<NodeInfo> nodes = session.nodes();
    byName = new HashMap<>();
    byIndex = new NodeLoad[nodes.size()];
    for (NodeInfo n : nodes) {
      NodeLoad load = new NodeLoad(n, metrics.get(n.name()), session.now());
      byName.put(n.name(), load);
      if (n.index() >= 0 && n.index() < byIndex.length) {
        byIndex[n.index()] = load;
      }
    }
    warmUp(nodes);

    extensions.add(
        ExtensionPoint.EVENT_HANDLER,
        new EventHandler() {
          @Override
          public Status allocated(TaskInfo task) {
            NodeInfo node = session.node(task.nodeName());
            NodeLoad load = node == null ? null : load(node);
            if (load != null) {
              addEstimate(task, load);
            }
            return Status.OK;
          }

          @Override
          public void deallocated(TaskInfo task) {
            shadow.remove(task.uid());
          }
        });
    extensions.add(ExtensionPoint.PREDICATE, this::check, UsagePlugin::taskKey);
    extensions.add(ExtensionPoint.NODE_ORDER, this::score, UsagePlugin::taskKey);
  }

  /**
   * The {@link dev.caldera.api.extension.NodeLocality} key of the predicate and the score, the same
   * for every task: both read nothing of the task, only the node's metrics (fixed for the session)
   * and its shadow load, which changes only when a task is allocated to or removed from that node.
   */
  static Object taskKey(TaskInfo task) {
    return NAME;
  }

  @Override
  public void onSessionClose(Session session) {
    shadow = new ShadowLoad();
    byName = Map.of();
    byIndex = new NodeLoad[0];
    this.session = null;
  }

  /**
   * This session's usage from Prometheus. When it cannot be read the session goes on without usage
   * (no node is refused for load, every score is 0, as with stale metrics), and a Warning event
   * says why, once until the server answers again or fails differently.
   */
  private Map<String, NodeMetrics> prometheusMetrics(Session session) {
    URI address = metricsArguments.address();
    try {
      Map<String, NodeMetrics> metrics =
          new PrometheusMetrics(address, metricsArguments.timeout()).fetch();
      problems.clear(address);
      return metrics;
    } catch (PrometheusMetrics.UnavailableException e) {
      if (problems.report(address, e.getMessage())) {
        session.recordEvent(
            "Plugin",
            NAME,
            "Warning",
            METRICS_UNAVAILABLE,
            e.getMessage() + "; nodes are filtered and scored without usage until it answers");
      }
      return Map.of();
    }
  }

  /** Adds the tasks already on the nodes that the metrics cannot show yet. */
  private void warmUp(List<NodeInfo> nodes) {
    for (NodeInfo node : nodes) {
      NodeLoad load = load(node);
      for (TaskInfo task : node.tasks()) {
        if (isShadow(task)) {
          addEstimate(task, load);
        }
      }
    }
  }

  /**
   * {@code shouldAddToShadowCache}: Allocated, Binding and Bound tasks, and Running tasks started
   * less than {@link #METRICS_INTERVAL} ago or at an unknown time. The model has no {@code
   * status.startTime}; the time the pod's PodScheduled condition turned true stands in for it.
   */
  private boolean isShadow(TaskInfo task) {
    if (task.nodeName().isEmpty()) {
      return false;
    }
    return switch (task.status()) {
      case ALLOCATED, BINDING, BOUND -> true;
      case RUNNING -> {
        Instant start = startTime(task);
        yield start == null
            || Duration.between(start, session.now()).compareTo(METRICS_INTERVAL) < 0;
      }
      default -> false;
    };
  }

  private static Instant startTime(TaskInfo task) {
    for (PodCondition c : task.pod().conditions()) {
      if (c.type().equals("PodScheduled") && c.status().equals("True")) {
        return c.lastTransitionTime();
      }
    }
    return null;
  }

  private void addEstimate(TaskInfo task, NodeLoad node) {
    double risk = riskFactor(node);
    double cpu;
    double memory;
    if (task.bestEffort()) {
      cpu = LoadEstimator.estimateBestEffort(arguments.bestEffortMilliCpu(), risk);
      memory = LoadEstimator.estimateBestEffort(arguments.bestEffortMemory(), risk);
    } else {
      // The model carries no container limits: every limit is missing, so the effective limit
      // is the request and burst_ratio has no effect.
      double[] request = LoadEstimator.podRequest(task.pod());
      cpu =
          LoadEstimator.estimatePod(
              request[0], 0, arguments.requestRatio(), arguments.burstRatio(), risk);
      memory =
          LoadEstimator.estimatePod(
              request[1], 0, arguments.requestRatio(), arguments.burstRatio(), risk);
    }
    shadow.add(task.uid(), node, cpu, memory);
  }

  private double riskFactor(NodeLoad node) {
    double load =
        LoadEstimator.compositeLoad(
            cpuUtilization(node),
            memoryUtilization(node),
            arguments.cpuWeight(),
            arguments.memoryWeight());
    return LoadEstimator.appliedRiskFactor(load, arguments.riskThreshold(), arguments.riskFactor());
  }

  private static double cpuUtilization(NodeLoad node) {
    return LoadEstimator.compositeUtilization(node.cpuPercent, node.cpu, node.cpuCapacity);
  }

  private static double memoryUtilization(NodeLoad node) {
    return LoadEstimator.compositeUtilization(node.memoryPercent, node.memory, node.memoryCapacity);
  }

  /** The predicate: only measured load counts, not the shadow. */
  Status check(TaskInfo task, NodeInfo node) {
    NodeLoad load = load(node);
    if (load == null || !load.fresh) {
      return Status.OK;
    }
    if (load.cpuPercent > arguments.cpuThreshold()) {
      return Status.unresolvable(CPU_OVERLOAD);
    }
    if (load.memoryPercent > arguments.memoryThreshold()) {
      return Status.unresolvable(MEMORY_OVERLOAD);
    }
    return Status.OK;
  }

  /** The node order: 0 without fresh metrics, else from the composite utilizations. */
  double score(TaskInfo task, NodeInfo node) {
    NodeLoad load = load(node);
    if (load == null || !load.fresh) {
      return 0;
    }
    return LoadEstimator.nodeScore(
        cpuUtilization(load),
        memoryUtilization(load),
        arguments.cpuWeight(),
        arguments.memoryWeight(),
        arguments.usageWeight());
  }

  private NodeLoad load(NodeInfo node) {
    int i = node.index();
    if (i >= 0 && i < byIndex.length && byIndex[i] != null) {
      return byIndex[i];
    }
    return byName.get(node.name());
  }
}
