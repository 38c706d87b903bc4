package dev.caldera.plugins.nodeorder;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.Session;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;

/**
 * Volcano's {@code nodeorder} plugin: kube-scheduler's scores. The node order function is
 * ImageLocality (raw score × weight); the batch node order function runs LeastAllocated,
 * MostAllocated, BalancedAllocation, NodeAffinity, InterPodAffinity, TaintToleration and
 * PodTopologySpread on the candidate nodes, normalised over those candidates.
 *
 * <p>Node occupancy follows Volcano's {@code ssn.NodeMap} (see {@link ClusterState}): the plugin
 * registers an event handler to track allocations, pipelines and evictions within the session. The
 * pods of each node are counted when the session first scores or allocates; a node that gives the
 * very task list the last session counted (one the framework carried over unchanged) takes that
 * count instead ({@link CountedNodes}), so a session reads only the pods of the nodes that changed.
 */
public final class NodeOrderPlugin implements Plugin {

  /** The registration name. */
  public static final String NAME = "nodeorder";

  private final NodeOrderArguments weights;
  private final PodRequests podRequests;
  private final CountedNodes countedNodes;

  public NodeOrderPlugin(NodeOrderArguments weights) {
    this(weights, new PodRequests(), new CountedNodes());
  }

  /**
   * A plugin that shares {@code podRequests} and {@code countedNodes} with the plugins of earlier
   * sessions.
   */
  NodeOrderPlugin(NodeOrderArguments weights, PodRequests podRequests, CountedNodes countedNodes) {
    this.weights = weights;
    this.podRequests = podRequests;
    this.countedNodes = countedNodes;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session session, Extensions extensions) {
    if (weights.imageLocality() == 0 && !weights.anyBatchScorer()) {
      return;
    }
    ClusterState cluster = new ClusterState(session, podRequests, countedNodes);
    extensions.add(ExtensionPoint.EVENT_HANDLER, cluster);
    // Without images on any node every ImageLocality score is 0, the same as registering nothing.
    if (weights.imageLocality() != 0 && cluster.anyImages()) {
      int weight = weights.imageLocality();
      extensions.add(
          ExtensionPoint.NODE_ORDER,
          (TaskInfo task, NodeInfo node) ->
              (double) ImageLocality.score(task.pod(), cluster.images(node.name())) * weight,
          task -> ImageLocality.images(task.pod()));
    }
    if (weights.anyBatchScorer()) {
      BatchScorer scorer = new BatchScorer(weights, cluster);
      extensions.add(ExtensionPoint.BATCH_NODE_ORDER, scorer, scorer::taskKey);
    }
  }
}
