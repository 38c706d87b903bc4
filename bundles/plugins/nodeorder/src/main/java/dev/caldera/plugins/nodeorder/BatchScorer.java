package dev.caldera.plugins.nodeorder;

import dev.caldera.api.extension.BatchNodeOrderFn;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.Pod;
import dev.caldera.api.placement.PodPlacement;
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
  private int[] candidateIndex = new int[0];
  private long[] total = new long[0];
  private long[] raw = new long[0];

  BatchScorer(NodeOrderArguments weights, ClusterState cluster) {
    this.weights = weights;
    this.cluster = cluster;
  }

  /**
   * The {@link dev.caldera.api.extension.NodeLocality} key of a task: its requests, when every
   * enabled scorer that normalises over the candidates or counts other pods has nothing to say
   * about it (the same conditions as the shortcuts in {@link #score}); else null.
   */
  Object taskKey(TaskInfo task) {
    Pod pod = task.pod();
    PodPlacement placement = task.placement();
    if ((weights.nodeAffinity() != 0 && scoresNodeAffinity(placement))
        || (weights.podAffinity() != 0 && scoresPodAffinity(placement))
        || (weights.taintToleration() != 0 && cluster.anyPreferNoSchedule())
        || (weights.podTopologySpread() != 0 && scoresTopologySpread(pod))) {
      return null;
    }
    synchronized (cluster) {
      return cluster.request(task, pod);
    }
  }

  /** Whether NodeAffinity has preferred terms to score (normalised over the candidates). */
  private static boolean scoresNodeAffinity(PodPlacement placement) {
    return !placement.preferredNodeTerms().isEmpty();
  }

  /** Whether InterPodAffinity has terms to score: the pod's own or existing pods'. */
  private boolean scoresPodAffinity(PodPlacement placement) {
    return placement.hasPreferredPodTerms() || cluster.topology().podsWithPreferredPodTerms() > 0;
  }

  /** Whether PodTopologySpread has constraints to score: the pod's own or the default ones. */
  private static boolean scoresTopologySpread(Pod pod) {
    return !pod.topologySpreadConstraints().isEmpty()
        || !pod.metadata().ownerReferences().isEmpty();
  }

  @Override
  public Status score(TaskInfo task, List<NodeInfo> candidates, double[] scores) {
    int size = candidates.size();
    if (size == 0) {
      return Status.OK;
    }
    synchronized (cluster) {
      cluster.countPods();
      if (nodes.length < size) {
        nodes = new NodeState[size];
        positions = new int[size];
        candidateIndex = new int[size];
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
      // Positions, not references, are stored per candidate: a reference store into this
      // long-lived array costs a GC write barrier, and most tasks need no node array at all.
      int[] slots = positions;
      long[] sums = total;
      IntConsumer mapAndScore =
          i -> {
            int slot = cluster.indexOf(candidates.get(i));
            slots[i] = slot;
            long sum = 0;
            if (slot >= 0) {
              NodeState node = cluster.nodeAt(slot);
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
      // Compact to the known nodes: candidate[k] is positions[k] after this, slots[k] its state.
      int[] candidateOf = candidateIndex;
      int n = 0;
      for (int i = 0; i < size; i++) {
        if (slots[i] >= 0) {
          slots[n] = slots[i];
          total[n] = total[i];
          candidateOf[n++] = i;
        }
      }
      if (n == 0) {
        return Status.OK;
      }
      boolean materialized = false;
      PodPlacement placement = task.placement();
      int w = weights.nodeAffinity();
      if (w != 0 && scoresNodeAffinity(placement)) {
        materialized = materialize(n, materialized);
        if (NodeAffinityScorer.score(placement, nodes, n, raw)) {
          addWeighted(n, w);
        }
      }
      w = weights.podAffinity();
      if (w != 0 && scoresPodAffinity(placement)) {
        materialized = materialize(n, materialized);
        if (InterPodAffinityScorer.score(placement, nodes, n, raw, cluster.topology())) {
          addWeighted(n, w);
        }
      }
      w = weights.taintToleration();
      if (w != 0) {
        if (cluster.anyPreferNoSchedule()) {
          materialized = materialize(n, materialized);
          TaintTolerationScorer.score(pod.tolerations(), nodes, n, raw);
          addWeighted(n, w);
        } else {
          long constant = Normalize.MAX_NODE_SCORE * w;
          for (int i = 0; i < n; i++) {
            total[i] += constant;
          }
        }
      }
      w = weights.podTopologySpread();
      if (w != 0 && scoresTopologySpread(pod)) {
        materialized = materialize(n, materialized);
        if (TopologySpreadScorer.score(placement, nodes, n, raw, cluster, cluster.topology())) {
          addWeighted(n, w);
        }
      }
      for (int i = 0; i < n; i++) {
        scores[candidateOf[i]] += total[i];
      }
      if (materialized) {
        Arrays.fill(nodes, 0, n, null);
      }
    }
    return Status.OK;
  }

  /** Fills {@code nodes[0..n)} from the compacted positions, once per call. */
  private boolean materialize(int n, boolean already) {
    if (!already) {
      for (int i = 0; i < n; i++) {
        nodes[i] = cluster.nodeAt(positions[i]);
      }
    }
    return true;
  }

  private void addWeighted(int n, int weight) {
    for (int i = 0; i < n; i++) {
      total[i] += raw[i] * weight;
    }
  }
}
