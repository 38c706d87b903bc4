package dev.caldera.plugins.binpack;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.Session;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.support.resource.Resource;

/**
 * Volcano's {@code binpack} plugin: a node order function that prefers the nodes that the task
 * would fill most, per resource weighted and averaged over the resources the task requests.
 */
public final class BinpackPlugin implements Plugin {

  /** The registration name. */
  public static final String NAME = "binpack";

  /** Kubernetes' {@code MaxNodeScore}. */
  private static final int MAX_NODE_SCORE = 100;

  private final BinpackArguments arguments;
  private final int[] weights;

  public BinpackPlugin(BinpackArguments arguments) {
    this.arguments = arguments;
    this.weights = arguments.weightsByIndex();
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session session, Extensions extensions) {
    if (arguments.weight() != 0) {
      // The score reads the task's request and the node's figures only.
      extensions.add(ExtensionPoint.NODE_ORDER, this::score, task -> task.resreq().valueKey());
    }
  }

  /**
   * {@code BinPackingScore}: for each resource the task requests (at least ε, {@code pods}
   * included) that has a configured weight, {@code (used + request) · weight / allocatable}; the
   * node scores 0 outright if any such resource would overflow. The sum is divided by the sum of
   * the weights and scaled to {@code 100 · binpack.weight}. {@code used} counts Releasing tasks but
   * not Pipelined ones, as Volcano's {@code node.Used} does.
   */
  double score(TaskInfo task, NodeInfo node) {
    ResourceView request = task.resreq();
    ResourceView allocatable = node.allocatable();
    ResourceView used = node.used();
    double score = 0;
    int weightSum = 0;
    int width = request.width();
    for (int i = 0; i < width; i++) {
      if (!request.has(i)) {
        continue;
      }
      double requested = request.get(i);
      // ResourceNames() lists only the dimensions of at least ε.
      if (requested < Resource.EPSILON) {
        continue;
      }
      int weight = i < weights.length ? weights[i] : -1;
      if (weight < 0) {
        continue;
      }
      double capacity = allocatable.get(i);
      if (capacity != 0 && weight != 0) {
        double usedFinally = requested + used.get(i);
        if (usedFinally > capacity) {
          return 0;
        }
        score += usedFinally * weight / capacity;
      }
      weightSum += weight;
    }
    if (weightSum > 0) {
      score /= weightSum;
    }
    return score * ((long) MAX_NODE_SCORE * arguments.weight());
  }
}
