package dev.caldera.support.placement;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.Pod;
import dev.caldera.api.placement.AffinityTerm;
import dev.caldera.api.placement.PodPlacement;
import dev.caldera.api.placement.Selector;
import dev.caldera.api.placement.SessionTopology;
import dev.caldera.api.placement.TopologyCounts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one implementation of {@link SessionTopology}, for whoever owns a session's placements (the
 * framework's session, the testkit's fake session): it is told each pod that starts or stops being
 * counted on a node ({@link #podAdded}, {@link #podRemoved}) and answers plugins from counts it
 * computes on first request and brings up to date from the changes recorded since. Plugins read it
 * through {@link SessionTopology} and never call the two change methods.
 *
 * <p>Changes are recorded only once some count exists; a count created later starts from the nodes'
 * {@link NodeInfo#pods()} as they are then.
 */
public final class TopologyKeeper implements SessionTopology {

  /** How one counted pod on a node contributes to a count ({@code delta} +1 or −1). */
  private interface Contribution {
    void add(PairCounts counts, TaskInfo task, Map<String, String> nodeLabels, long delta);
  }

  /** What a count reads when computed from scratch. */
  private enum Source {
    /** Every counted pod. */
    PODS,
    /** The counted pods with preferred pod (anti-)affinity terms. */
    WITH_PREFERRED_TERMS,
    /** The counted pods with required anti-affinity terms. */
    WITH_REQUIRED_ANTI_AFFINITY
  }

  private record Placed(TaskInfo task, NodeInfo node) {}

  private record Key(String kind, Object first, Object second) {}

  private record Change(TaskInfo task, NodeInfo node, int delta) {}

  private static final class Counted {
    final Contribution contribution;
    PairCounts counts;
    int seen;

    Counted(Contribution contribution) {
      this.contribution = contribution;
    }
  }

  private static final class PerNode {
    final Selector selector;
    final String namespace;
    final int[] counts;
    int seen;

    PerNode(Selector selector, String namespace, int nodes) {
      this.selector = selector;
      this.namespace = namespace;
      this.counts = new int[nodes];
    }
  }

  private final List<? extends NodeInfo> nodes;
  private final Map<String, Integer> positions = new HashMap<>();
  private final Map<String, Map<String, String>> namespaceLabels;
  private final List<Change> changes = new ArrayList<>();
  private final Map<Key, Counted> counted = new HashMap<>();
  private final Map<Key, PerNode> perNode = new HashMap<>();
  private static final PairCounts NONE = new PairCounts().readOnly();

  /**
   * The counted pods with preferred terms and those with required anti-affinity, by UID (as
   * kube-scheduler's snapshot lists the nodes that have them); null until first needed.
   */
  private Map<String, Placed> withPreferredTerms;

  private Map<String, Placed> withRequiredAntiAffinity;

  /**
   * @param nodes the session's nodes, in session order
   * @param namespaceLabels the labels of each namespace the session knows, by name
   */
  public TopologyKeeper(
      List<? extends NodeInfo> nodes, Map<String, Map<String, String>> namespaceLabels) {
    this.nodes = List.copyOf(nodes);
    for (int i = 0; i < this.nodes.size(); i++) {
      positions.putIfAbsent(this.nodes.get(i).name(), i);
    }
    this.namespaceLabels = Map.copyOf(namespaceLabels);
  }

  // ------------------------------------------------------------ changes (the session's owner)

  /** {@code task} now counts on {@code node}. */
  public synchronized void podAdded(TaskInfo task, NodeInfo node) {
    changed(task, node, 1);
  }

  /** {@code task} no longer counts on {@code node}. */
  public synchronized void podRemoved(TaskInfo task, NodeInfo node) {
    changed(task, node, -1);
  }

  private void changed(TaskInfo task, NodeInfo node, int delta) {
    if (withPreferredTerms != null && hasPreferredTerms(task)) {
      track(withPreferredTerms, task, node, delta);
    }
    if (withRequiredAntiAffinity != null && PodPlacement.hasRequiredAntiAffinity(task.pod())) {
      track(withRequiredAntiAffinity, task, node, delta);
    }
    if (!counted.isEmpty() || !perNode.isEmpty()) {
      changes.add(new Change(task, node, delta));
    }
  }

  private static void track(Map<String, Placed> pods, TaskInfo task, NodeInfo node, int delta) {
    if (delta > 0) {
      pods.put(task.uid(), new Placed(task, node));
    } else {
      pods.remove(task.uid());
    }
  }

  private Map<String, Placed> withPreferredTerms() {
    if (withPreferredTerms == null) {
      Map<String, Placed> pods = new LinkedHashMap<>();
      for (NodeInfo node : nodes) {
        for (TaskInfo task : node.podsWithAffinity()) {
          if (hasPreferredTerms(task)) {
            pods.put(task.uid(), new Placed(task, node));
          }
        }
      }
      withPreferredTerms = pods;
    }
    return withPreferredTerms;
  }

  private Map<String, Placed> withRequiredAntiAffinity() {
    if (withRequiredAntiAffinity == null) {
      Map<String, Placed> pods = new LinkedHashMap<>();
      for (NodeInfo node : nodes) {
        for (TaskInfo task : node.podsWithRequiredAntiAffinity()) {
          pods.put(task.uid(), new Placed(task, node));
        }
      }
      withRequiredAntiAffinity = pods;
    }
    return withRequiredAntiAffinity;
  }

  // ------------------------------------------------------------ SessionTopology

  @Override
  public synchronized TopologyCounts matchingAll(List<AffinityTerm> terms) {
    if (terms.isEmpty()) {
      return NONE;
    }
    return counts(
        new Key("matchingAll", List.copyOf(terms), null),
        Source.PODS,
        (counts, task, nodeLabels, delta) -> {
          if (AffinityTerms.matchesAll(terms, task.pod())) {
            for (int i = 0; i < terms.size(); i++) {
              counts.add(terms.get(i).topologyKey(), nodeLabels, delta);
            }
          }
        });
  }

  @Override
  public synchronized TopologyCounts matchingEach(List<AffinityTerm> terms) {
    if (terms.isEmpty()) {
      return NONE;
    }
    return counts(
        new Key("matchingEach", List.copyOf(terms), null),
        Source.PODS,
        (counts, task, nodeLabels, delta) -> {
          Pod pod = task.pod();
          Map<String, String> nsLabels = namespaceLabels.get(pod.namespace());
          for (int i = 0; i < terms.size(); i++) {
            AffinityTerm t = terms.get(i);
            if (t.matches(pod, nsLabels)) {
              long weight = t.weight() == 0 ? 1 : t.weight();
              counts.add(t.topologyKey(), nodeLabels, weight * delta);
            }
          }
        });
  }

  @Override
  public synchronized TopologyCounts existingRequiredAntiAffinity(Pod incoming) {
    if (withRequiredAntiAffinity().isEmpty()) {
      return NONE;
    }
    Map<String, String> nsLabels = namespaceLabels.getOrDefault(incoming.namespace(), Map.of());
    return counts(
        new Key("existingRequiredAnti", incoming.namespace(), incoming.metadata().labels()),
        Source.WITH_REQUIRED_ANTI_AFFINITY,
        (counts, task, nodeLabels, delta) -> {
          if (!PodPlacement.hasRequiredAntiAffinity(task.pod())) {
            return;
          }
          for (AffinityTerm t : task.placement().requiredAntiAffinity()) {
            if (t.matches(incoming, nsLabels)) {
              counts.add(t.topologyKey(), nodeLabels, delta);
            }
          }
        });
  }

  @Override
  public synchronized TopologyCounts existingPreferred(Pod incoming) {
    if (withPreferredTerms().isEmpty()) {
      return NONE;
    }
    Map<String, String> nsLabels = namespaceLabels.getOrDefault(incoming.namespace(), Map.of());
    return counts(
        new Key("existingPreferred", incoming.namespace(), incoming.metadata().labels()),
        Source.WITH_PREFERRED_TERMS,
        (counts, task, nodeLabels, delta) -> {
          if (!hasPreferredTerms(task)) {
            return;
          }
          PodPlacement theirs = task.placement();
          addWeights(counts, theirs.preferredAffinity(), incoming, nsLabels, nodeLabels, delta);
          addWeights(
              counts, theirs.preferredAntiAffinity(), incoming, nsLabels, nodeLabels, -delta);
        });
  }

  private static void addWeights(
      PairCounts counts,
      List<AffinityTerm> terms,
      Pod target,
      Map<String, String> targetNamespaceLabels,
      Map<String, String> nodeLabels,
      long sign) {
    for (int i = 0; i < terms.size(); i++) {
      AffinityTerm t = terms.get(i);
      if (t.matches(target, targetNamespaceLabels)) {
        counts.add(t.topologyKey(), nodeLabels, t.weight() * sign);
      }
    }
  }

  private static boolean hasPreferredTerms(TaskInfo task) {
    return PodPlacement.hasPreferredPodTerms(task.pod()) && task.placement().hasPreferredPodTerms();
  }

  @Override
  public synchronized int podsWithPreferredPodTerms() {
    return withPreferredTerms().size();
  }

  @Override
  public synchronized int matchingPods(NodeInfo node, Selector selector, String namespace) {
    Integer position = positionOf(node);
    if (position == null || selector.isEmpty() || selector.isNothing()) {
      return 0;
    }
    Key key = new Key("matchingPods", selector, namespace);
    PerNode entry = perNode.get(key);
    if (entry == null) {
      entry = new PerNode(selector, namespace, nodes.size());
      for (int i = 0; i < nodes.size(); i++) {
        for (TaskInfo task : nodes.get(i).pods()) {
          if (countsFor(entry, task)) {
            entry.counts[i]++;
          }
        }
      }
      entry.seen = changes.size();
      perNode.put(key, entry);
    } else {
      for (int c = entry.seen; c < changes.size(); c++) {
        Change change = changes.get(c);
        Integer at = positionOf(change.node());
        if (at != null && countsFor(entry, change.task())) {
          entry.counts[at] += change.delta();
        }
      }
      entry.seen = changes.size();
    }
    return entry.counts[position];
  }

  private static boolean countsFor(PerNode entry, TaskInfo task) {
    Pod pod = task.pod();
    return pod.metadata().deletionTimestamp() == null
        && entry.namespace.equals(pod.namespace())
        && entry.selector.matches(pod.metadata().labels());
  }

  // ------------------------------------------------------------ helpers

  private Integer positionOf(NodeInfo node) {
    int index = node.index();
    if (index >= 0 && index < nodes.size() && nodes.get(index).name().equals(node.name())) {
      return index;
    }
    return positions.get(node.name());
  }

  private PairCounts counts(Key key, Source source, Contribution contribution) {
    Counted entry = counted.get(key);
    if (entry == null) {
      Map<String, Placed> few =
          switch (source) {
            case PODS -> null;
            case WITH_PREFERRED_TERMS -> withPreferredTerms();
            case WITH_REQUIRED_ANTI_AFFINITY -> withRequiredAntiAffinity();
          };
      if (few != null && few.isEmpty()) {
        // Nothing to count yet: no entry, so a session without such pods records no changes.
        return NONE;
      }
      entry = new Counted(contribution);
      PairCounts counts = new PairCounts();
      if (few == null) {
        for (NodeInfo node : nodes) {
          Map<String, String> labels = node.node().metadata().labels();
          for (TaskInfo task : node.pods()) {
            contribution.add(counts, task, labels, 1);
          }
        }
      } else {
        for (Placed p : few.values()) {
          contribution.add(counts, p.task(), p.node().node().metadata().labels(), 1);
        }
      }
      entry.counts = counts.readOnly();
      entry.seen = changes.size();
      counted.put(key, entry);
      return entry.counts;
    }
    if (entry.seen < changes.size()) {
      PairCounts counts = entry.counts.copy();
      for (int c = entry.seen; c < changes.size(); c++) {
        Change change = changes.get(c);
        Map<String, String> labels = change.node().node().metadata().labels();
        entry.contribution.add(counts, change.task(), labels, change.delta());
      }
      entry.counts = counts.readOnly();
      entry.seen = changes.size();
    }
    return entry.counts;
  }
}
