package dev.caldera.plugins.resourcestrategyfit;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.Session;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.resource.ResourceView;
import java.util.Arrays;
import java.util.Map;

/**
 * Volcano's {@code resource-strategy-fit} plugin: a node order function that scores each resource
 * the task requests with its own strategy (MostAllocated packs, LeastAllocated spreads) and weight,
 * plus the optional {@code sra} part that keeps tasks off nodes with scarce resources, and the
 * optional {@code proportional} predicate that reserves cpu and memory for a node's scarce
 * resources.
 *
 * <p>A pod may override the {@code resources} configuration with the annotations {@code
 * volcano.sh/resource-strategy-scoring-type} ({@code MostAllocated} or {@code LeastAllocated}) and
 * {@code volcano.sh/resource-strategy-weight}, a JSON object from resource name (or {@code prefix*}
 * pattern) to weight ({@code {"nvidia.com/gpu": 3, "cpu": 1}}), read by the shared annotation
 * reader ({@code AnnotationJson} of {@code caldera-api-support}): a weight must be written as an
 * integer (no fraction, no exponent), and a repeated resource keeps its last weight. Annotations
 * are pod data, not arguments: one that cannot be read leaves the pod scored with the
 * configuration.
 */
public final class ResourceStrategyFitPlugin implements Plugin {

  /** The registration name. */
  public static final String NAME = "resource-strategy-fit";

  /** Kubernetes' {@code MaxNodeScore}. */
  static final int MAX_NODE_SCORE = 100;

  private final ResourceStrategyFitArguments arguments;
  private final SraPolicy.Compiled sra;
  private final ProportionalPolicy.Compiled proportional;

  // The plan of the task being scored: allocate scores one task on many nodes (possibly on several
  // threads) before it moves on, so one entry is enough; a race only computes the plan twice.
  private volatile TaskPlan lastPlan;

  ResourceStrategyFitPlugin(ResourceStrategyFitArguments arguments) {
    this.arguments = arguments;
    this.sra = arguments.sra().compile();
    this.proportional =
        arguments.proportional() == null ? null : arguments.proportional().compile();
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session session, Extensions extensions) {
    if (proportional != null) {
      extensions.add(ExtensionPoint.PREDICATE, this::predicate, ResourceStrategyFitPlugin::taskKey);
    }
    if (arguments.fitWeight() > 0 || arguments.sra().active()) {
      extensions.add(ExtensionPoint.NODE_ORDER, this::score, ResourceStrategyFitPlugin::taskKey);
    }
  }

  /**
   * The {@link dev.caldera.api.extension.NodeLocality} key of the predicate and the score: both
   * read only the task's request and its two override annotations, and the node's allocatable, used
   * and idle resources.
   */
  static Object taskKey(TaskInfo task) {
    Map<String, String> annotations = task.pod().metadata().annotations();
    return Arrays.asList(
        task.resreq().valueKey(),
        annotations.get(PodOverrides.SCORING_TYPE),
        annotations.get(PodOverrides.WEIGHTS));
  }

  /** The proportional predicate (registered only when the policy is enabled). */
  Status predicate(TaskInfo task, NodeInfo node) {
    TaskPlan plan = plan(task);
    return proportional.check(plan.requestsProportional, task.resreq(), node);
  }

  /** The node score: the fit part if its weight is above 0, plus the sra part if active. */
  double score(TaskInfo task, NodeInfo node) {
    TaskPlan plan = plan(task);
    double score = 0;
    if (arguments.fitWeight() > 0) {
      score += fitScore(plan, node);
    }
    if (arguments.sra().active()) {
      score += sra.score(plan.requested, node);
    }
    return score;
  }

  /**
   * Volcano's {@code Score}: for each requested resource with a strategy, with {@code usedFinally =
   * used + request}, MostAllocated gives {@code usedFinally · w / cap} and LeastAllocated {@code
   * (cap − usedFinally) · w / cap} (0 when {@code cap} or {@code w} is 0); if any {@code
   * usedFinally > cap} the whole node scores 0. The sum is divided by Σw and scaled by {@code 100 ·
   * resourceStrategyFitWeight}. {@code used} counts Releasing tasks but not Pipelined ones.
   */
  double fitScore(TaskPlan plan, NodeInfo node) {
    ResourceView request = plan.task.resreq();
    ResourceView allocatable = node.allocatable();
    ResourceView used = node.used();
    double score = 0;
    int weightSum = 0;
    for (int k = 0; k < plan.scored.length; k++) {
      int i = plan.scored[k];
      int weight = plan.weights[k];
      double capacity = allocatable.get(i);
      if (weight != 0 && capacity != 0) {
        double usedFinally = request.get(i) + used.get(i);
        if (usedFinally > capacity) {
          return 0;
        }
        score +=
            plan.mostAllocated[k]
                ? usedFinally * weight / capacity
                : (capacity - usedFinally) * weight / capacity;
      }
      weightSum += weight;
    }
    if (weightSum > 0) {
      score /= weightSum;
    }
    return score * ((double) MAX_NODE_SCORE * arguments.fitWeight());
  }

  private TaskPlan plan(TaskInfo task) {
    TaskPlan plan = lastPlan;
    if (plan == null || plan.task != task) {
      plan = new TaskPlan(task, arguments.resources(), proportional);
      lastPlan = plan;
    }
    return plan;
  }
}
