package dev.caldera.plugins.nodegroup;

import dev.caldera.api.model.NodeGroupAffinity;
import dev.caldera.api.model.Queue;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A queue's node group affinity and anti-affinity ({@code spec.affinity}) as lookup sets. */
final class GroupAffinity {

  /** Kubernetes' {@code MaxNodeScore}: the score of a required group. */
  static final double BASE_SCORE = 100;

  private final Set<String> required;
  private final Set<String> preferred;
  private final Set<String> antiRequired;
  private final Set<String> antiPreferred;

  /** Group → index in the preferred list; a repeated group keeps its last index, as in Volcano. */
  private final Map<String, Integer> preferredIndex;

  private GroupAffinity(NodeGroupAffinity affinity, NodeGroupAffinity antiAffinity) {
    List<String> preferredList = affinity == null ? List.of() : affinity.preferred();
    required = affinity == null ? Set.of() : new HashSet<>(affinity.required());
    preferred = new HashSet<>(preferredList);
    antiRequired = antiAffinity == null ? Set.of() : new HashSet<>(antiAffinity.required());
    antiPreferred = antiAffinity == null ? Set.of() : new HashSet<>(antiAffinity.preferred());
    preferredIndex = new HashMap<>();
    for (int i = 0; i < preferredList.size(); i++) {
      preferredIndex.put(preferredList.get(i), i);
    }
  }

  /** The queue's affinity, or null when it has no {@code spec.affinity}. */
  static GroupAffinity of(Queue queue) {
    if (queue.nodeGroupAffinity() == null && queue.nodeGroupAntiAffinity() == null) {
      return null;
    }
    return new GroupAffinity(queue.nodeGroupAffinity(), queue.nodeGroupAntiAffinity());
  }

  /** Whether all four lists are empty. */
  boolean isEmpty() {
    return required.isEmpty()
        && preferred.isEmpty()
        && antiRequired.isEmpty()
        && antiPreferred.isEmpty();
  }

  /**
   * Whether a node of {@code group} is allowed. The checks run in Volcano's order, so a group in
   * both the required anti-affinity and the preferred anti-affinity is allowed (the quirk of §11
   * item 19).
   */
  boolean allows(String group) {
    boolean ok = required.contains(group) || preferred.contains(group);
    if (antiRequired.contains(group)) {
      ok = false;
    }
    if (antiPreferred.contains(group)) {
      ok = true;
    }
    return ok;
  }

  /**
   * The node score: 100 for a required group, plus 50 for a preferred one (or {@code 50·(n−i)/n} by
   * list position with {@code enablePreferredOrder}, n the number of distinct preferred groups); −1
   * outright for a group in the preferred anti-affinity.
   */
  double score(String group, boolean preferredOrder) {
    double score = 0;
    if (required.contains(group)) {
      score += BASE_SCORE;
    }
    if (preferredOrder) {
      Integer i = preferredIndex.get(group);
      if (i != null) {
        int n = preferredIndex.size();
        score += 0.5 * BASE_SCORE * (n - i) / n;
      }
    } else if (preferred.contains(group)) {
      score += 0.5 * BASE_SCORE;
    }
    if (antiPreferred.contains(group)) {
      score = -1;
    }
    return score;
  }
}
