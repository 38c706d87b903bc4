package dev.caldera.plugins.predicates;

import dev.caldera.api.extension.Status;
import dev.caldera.api.model.Pod;
import dev.caldera.api.placement.AffinityTerm;
import dev.caldera.api.placement.TopologyCounts;
import dev.caldera.support.placement.AffinityTerms;
import java.util.Map;

/**
 * The inter-pod affinity pre-filter state of one incoming pod (upstream's {@code preFilterState}):
 * per topology pair, how many existing pods match its affinity terms and its anti-affinity terms,
 * and how many existing pods have anti-affinity terms that match it. The counts are the session's
 * shared ones ({@link dev.caldera.api.placement.SessionTopology}, read-only); simulations change a
 * {@link #copy()} through {@link #update}.
 */
final class InterPodAffinityState {

  private final TaskFacts incoming;

  /** The labels of the incoming pod's namespace; empty when the session does not know it. */
  private final Map<String, String> namespaceLabels;

  private final TopologyCounts existingAntiAffinity;
  private final TopologyCounts affinity;
  private final TopologyCounts antiAffinity;

  InterPodAffinityState(
      TaskFacts incoming,
      Map<String, String> namespaceLabels,
      TopologyCounts existingAntiAffinity,
      TopologyCounts affinity,
      TopologyCounts antiAffinity) {
    this.incoming = incoming;
    this.namespaceLabels = namespaceLabels;
    this.existingAntiAffinity = existingAntiAffinity;
    this.affinity = affinity;
    this.antiAffinity = antiAffinity;
  }

  /** Whether the filter has nothing to check (upstream's PreFilter Skip). */
  boolean skippable() {
    return existingAntiAffinity.isEmpty()
        && incoming.affinity.isEmpty()
        && incoming.antiAffinity.isEmpty();
  }

  /**
   * Counts an existing pod on a node with these labels ({@code delta} +1) or uncounts it (−1), as
   * upstream's {@code updateWithPod}.
   */
  void update(TaskFacts existing, Map<String, String> nodeLabels, int delta) {
    Pod incomingPod = incoming.pod;
    for (AffinityTerm t : existing.existingAntiAffinity) {
      if (t.matches(incomingPod, namespaceLabels)) {
        existingAntiAffinity.add(t.topologyKey(), nodeLabels, delta);
      }
    }
    countIncomingTerms(existing.pod, nodeLabels, delta);
  }

  /** Counts an existing pod against the incoming pod's own affinity and anti-affinity terms. */
  private void countIncomingTerms(Pod existing, Map<String, String> nodeLabels, int delta) {
    if (AffinityTerms.matchesAll(incoming.affinity, existing)) {
      for (AffinityTerm t : incoming.affinity) {
        affinity.add(t.topologyKey(), nodeLabels, delta);
      }
    }
    for (AffinityTerm t : incoming.antiAffinity) {
      if (t.matches(existing, null)) {
        antiAffinity.add(t.topologyKey(), nodeLabels, delta);
      }
    }
  }

  /**
   * Checks a node with these labels: the pod's affinity (unresolvable when unmet), its
   * anti-affinity and the existing pods' anti-affinity (both unschedulable). Null when it fits.
   */
  Status filter(Map<String, String> nodeLabels) {
    if (!satisfiesAffinity(nodeLabels)) {
      return Reasons.POD_AFFINITY_STATUS;
    }
    if (!antiAffinity.isEmpty()) {
      for (AffinityTerm t : incoming.antiAffinity) {
        String value = nodeLabels.get(t.topologyKey());
        if (value != null && antiAffinity.get(t.topologyKey(), value) > 0) {
          return Reasons.POD_ANTI_AFFINITY_STATUS;
        }
      }
    }
    if (!existingAntiAffinity.isEmpty() && existingAntiAffinity.anyPositive(nodeLabels)) {
      return Reasons.EXISTING_ANTI_AFFINITY_STATUS;
    }
    return null;
  }

  private boolean satisfiesAffinity(Map<String, String> nodeLabels) {
    boolean podsExist = true;
    for (AffinityTerm t : incoming.affinity) {
      String value = nodeLabels.get(t.topologyKey());
      if (value == null) {
        return false;
      }
      if (affinity.get(t.topologyKey(), value) <= 0) {
        podsExist = false;
      }
    }
    // The first pod of a group with affinity to itself may go anywhere that has the topology
    // labels, as long as no other pod in the cluster matches its terms.
    return podsExist
        || (affinity.isEmpty() && AffinityTerms.matchesAll(incoming.affinity, incoming.pod));
  }

  InterPodAffinityState copy() {
    return new InterPodAffinityState(
        incoming,
        namespaceLabels,
        existingAntiAffinity.copy(),
        affinity.copy(),
        antiAffinity.copy());
  }
}
