package dev.caldera.plugins.nodeorder;

import dev.caldera.api.extension.BatchNodeOrderFn;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.Pod;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;

/**
 * The nodeorder batch node order function: each enabled kube-scheduler scorer's 0..100 score over
 * the candidate nodes, times its weight, added up. Scratch arrays are reused between calls, and
 * scorers that have nothing to say about the task (no preferred terms, no soft spread constraints,
 * no tainted candidate) take a shortcut with the same result.
 */
final class BatchScorer implements BatchNodeOrderFn {

  /** From this many candidates on, the per-node resource scores are computed in parallel. */
  private static final int PARALLEL_THRESHOLD = 256;

  private final NodeOrderArguments weights;
  private final ClusterState cluster;
  private NodeState[] nodes = new NodeState[0];
  private int[] positions = new int[0];
  private long[] total = new long[0];
  private long[] raw = new long[0];

  BatchScorer(NodeOrderArguments weights, ClusterState cluster) {
    this.weights = weights;
    this.cluster = cluster;
  }

  @Override
  public Status score(TaskInfo task, List<NodeInfo> candidates, double[] scores) {
    int size = candidates.size();
    if (size == 0) {
      return Status.OK;
    }
    synchronized (cluster) {
      if (nodes.length < size) {
        nodes = new NodeState[size];
        positions = new int[size];
        total = new long[size];
        raw = new long[size];
      }
      // One parallel pass maps each candidate to its node state and computes the per-node
      // resource scores; like Volcano, only candidates known to the session's node map count.
      Pod pod = task.pod();
      PodRequest request = cluster.request(task, pod);
      int least = weights.leastRequested();
      int most = weights.mostRequested();
      int balanced = request.bestEffortForBalance() ? 0 : weights.balancedResource();
      NodeState[] found = nodes;
      long[] sums = total;
      IntConsumer mapAndScore =
          i -> {
            NodeState node = cluster.node(candidates.get(i));
            found[i] = node;
            long sum = 0;
            if (node != null) {
              if (least != 0) {
                sum += ResourceScores.leastAllocated(request, node) * least;
              }
              if (most != 0) {
                sum += ResourceScores.mostAllocated(request, node) * most;
              }
              if (balanced != 0) {
                sum += ResourceScores.balanced(request, node) * balanced;
              }
            }
            sums[i] = sum;
          };
      if (size >= PARALLEL_THRESHOLD) {
        IntStream.range(0, size).parallel().forEach(mapAndScore);
      } else {
        for (int i = 0; i < size; i++) {
          mapAndScore.accept(i);
        }
      }
      int n = 0;
      for (int i = 0; i < size; i++) {
        NodeState node = found[i];
        if (node != null) {
          found[n] = node;
          total[n] = total[i];
          positions[n++] = i;
        }
      }
      if (n == 0) {
        return Status.OK;
      }
      int w = weights.nodeAffinity();
      if (w != 0 && NodeAffinityScorer.score(pod, nodes, n, raw)) {
        addWeighted(n, w);
      }
      w = weights.podAffinity();
      if (w != 0 && InterPodAffinityScorer.score(pod, nodes, n, raw, cluster)) {
        addWeighted(n, w);
      }
      w = weights.taintToleration();
      if (w != 0) {
        TaintTolerationScorer.score(pod.tolerations(), nodes, n, raw);
        addWeighted(n, w);
      }
      w = weights.podTopologySpread();
      if (w != 0 && TopologySpreadScorer.score(pod, nodes, n, raw, cluster)) {
        addWeighted(n, w);
      }
      for (int i = 0; i < n; i++) {
        scores[positions[i]] += total[i];
      }
      Arrays.fill(nodes, 0, n, null);
    }
    return Status.OK;
  }

  private void addWeighted(int n, int weight) {
    for (int i = 0; i < n; i++) {
      total[i] += raw[i] * weight;
    }
  }
}
