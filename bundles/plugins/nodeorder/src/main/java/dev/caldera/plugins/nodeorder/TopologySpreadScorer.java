package dev.caldera.plugins.nodeorder;

import dev.caldera.api.model.OwnerReference;
import dev.caldera.api.model.Pod;
import dev.caldera.api.placement.PodPlacement;
import dev.caldera.api.placement.Selector;
import dev.caldera.api.placement.SessionTopology;
import dev.caldera.api.placement.SpreadConstraint;
import dev.caldera.support.placement.LabelSelectors;
import dev.caldera.support.placement.SpreadConstraints;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube-scheduler's PodTopologySpread score for soft ({@code ScheduleAnyway}) constraints, with
 * Volcano's system defaulting: a pod without constraints of its own gets the default ones
 * (hostname, max skew 3; zone, max skew 5) only if a ReplicaSet, StatefulSet or
 * ReplicationController controls it, selecting the pods with all of its labels (the model has no
 * controller objects, so the pod's own labels stand in for the controller's selector; Services are
 * not modelled). Counting and normalisation follow upstream: matching pods per topology value over
 * all nodes, {@code cnt · log(domains + 2) + maxSkew − 1} per constraint, then reversed against the
 * best candidate.
 */
final class TopologySpreadScorer {

  static final String HOSTNAME = "kubernetes.io/hostname";
  static final String ZONE = "topology.kubernetes.io/zone";
  private static final Set<String> DEFAULTING_OWNERS =
      Set.of("ReplicaSet", "StatefulSet", "ReplicationController");

  private TopologySpreadScorer() {}

  /**
   * Writes the normalised scores of the first {@code n} candidates into {@code out}; false
   * (PreScore Skip: every score 0) when the pod has no soft constraint.
   */
  static boolean score(
      PodPlacement placement,
      NodeState[] candidates,
      int n,
      long[] out,
      ClusterState cluster,
      SessionTopology topology) {
    Pod pod = placement.pod();
    boolean requireAll = !pod.topologySpreadConstraints().isEmpty();
    List<SpreadConstraint> constraints =
        requireAll ? placement.softSpread() : defaultConstraints(pod);
    if (constraints.isEmpty() || cluster.nodes().isEmpty()) {
      return false;
    }
    int k = constraints.size();
    List<Map<String, long[]>> counts = new ArrayList<>(k);
    int[] domains = new int[k];
    for (int c = 0; c < k; c++) {
      counts.add(new HashMap<>());
    }
    boolean[] ignored = new boolean[n];
    int ignoredCount = 0;
    for (int i = 0; i < n; i++) {
      Map<String, String> labels = candidates[i].labels;
      if (requireAll && !hasAllKeys(labels, constraints)) {
        ignored[i] = true;
        ignoredCount++;
        continue;
      }
      for (int c = 0; c < k; c++) {
        SpreadConstraint constraint = constraints.get(c);
        if (HOSTNAME.equals(constraint.topologyKey())) {
          continue;
        }
        String value = labels.getOrDefault(constraint.topologyKey(), "");
        if (counts.get(c).putIfAbsent(value, new long[1]) == null) {
          domains[c]++;
        }
      }
    }
    double[] weights = new double[k];
    for (int c = 0; c < k; c++) {
      int size = HOSTNAME.equals(constraints.get(c).topologyKey()) ? n - ignoredCount : domains[c];
      weights[c] = StrictMath.log(size + 2.0);
    }
    for (NodeState node : cluster.nodes()) {
      if (requireAll && !hasAllKeys(node.labels, constraints)) {
        continue;
      }
      for (int c = 0; c < k; c++) {
        SpreadConstraint constraint = constraints.get(c);
        if (!constraint.includes(placement, node.node)) {
          continue;
        }
        long[] count = counts.get(c).get(node.labels.getOrDefault(constraint.topologyKey(), ""));
        if (count != null) {
          count[0] += matchingPods(topology, node, constraint, pod.namespace());
        }
      }
    }
    for (int i = 0; i < n; i++) {
      if (ignored[i]) {
        continue;
      }
      double score = 0;
      Map<String, String> labels = candidates[i].labels;
      for (int c = 0; c < k; c++) {
        SpreadConstraint constraint = constraints.get(c);
        String value = labels.get(constraint.topologyKey());
        if (value == null) {
          continue;
        }
        long cnt =
            HOSTNAME.equals(constraint.topologyKey())
                ? matchingPods(topology, candidates[i], constraint, pod.namespace())
                : counts.get(c).get(value)[0];
        score += (double) cnt * weights[c] + (double) (constraint.maxSkew() - 1);
      }
      out[i] = Math.round(score);
    }
    normalize(out, ignored, n);
    return true;
  }

  private static void normalize(long[] scores, boolean[] ignored, int n) {
    long min = Long.MAX_VALUE;
    long max = 0;
    for (int i = 0; i < n; i++) {
      if (!ignored[i]) {
        min = Math.min(min, scores[i]);
        max = Math.max(max, scores[i]);
      }
    }
    for (int i = 0; i < n; i++) {
      if (ignored[i]) {
        scores[i] = 0;
      } else if (max == 0) {
        scores[i] = Normalize.MAX_NODE_SCORE;
      } else {
        scores[i] = Normalize.MAX_NODE_SCORE * (max + min - scores[i]) / max;
      }
    }
  }

  private static List<SpreadConstraint> defaultConstraints(Pod pod) {
    if (!controlledByDefaultingOwner(pod)) {
      return List.of();
    }
    Selector selector = LabelSelectors.ofLabels(pod.metadata().labels());
    if (selector.isEmpty()) {
      return List.of();
    }
    return List.of(
        SpreadConstraints.of(3, HOSTNAME, selector, 1, true, false, false),
        SpreadConstraints.of(5, ZONE, selector, 1, true, false, false));
  }

  private static boolean controlledByDefaultingOwner(Pod pod) {
    for (OwnerReference owner : pod.metadata().ownerReferences()) {
      if (owner.controller()) {
        return DEFAULTING_OWNERS.contains(owner.kind());
      }
    }
    return false;
  }

  private static boolean hasAllKeys(
      Map<String, String> labels, List<SpreadConstraint> constraints) {
    for (SpreadConstraint c : constraints) {
      if (!labels.containsKey(c.topologyKey())) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@code countPodsMatchSelector} over the pods counted on {@code node}, from the shared counts.
   */
  private static int matchingPods(
      SessionTopology topology, NodeState node, SpreadConstraint constraint, String namespace) {
    return topology.matchingPods(node.info, constraint.selector(), namespace);
  }
}
