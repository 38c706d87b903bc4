package dev.caldera.support.placement;

import dev.caldera.api.model.NodeAffinity;
import dev.caldera.api.model.NodeSelectorRequirement;
import dev.caldera.api.model.NodeSelectorTerm;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodAffinity;
import dev.caldera.api.model.PodAffinityTerm;
import dev.caldera.api.model.PreferredSchedulingTerm;
import dev.caldera.api.model.TopologySpreadConstraint;
import dev.caldera.api.model.WeightedPodAffinityTerm;
import dev.caldera.api.placement.AffinityTerm;
import dev.caldera.api.placement.NodeSelection;
import dev.caldera.api.placement.PodPlacement;
import dev.caldera.api.placement.SpreadConstraint;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The parser of one pod's placement terms into a {@link PodPlacement}, and its one implementation:
 * parsed once, a pod without any term costs a few field reads. Parsing never fails; what Kubernetes
 * would reject is kept as {@link PodPlacement#problems()} describes.
 */
public final class PodPlacements implements PodPlacement {

  private static final String NODE_AFFINITY = "spec.affinity.nodeAffinity.";
  private static final String REQUIRED = "requiredDuringSchedulingIgnoredDuringExecution";
  private static final String PREFERRED = "preferredDuringSchedulingIgnoredDuringExecution";

  private final Pod pod;
  private final NodeSelection requiredNodes;
  private final boolean nodeNamesConflict;
  private final List<WeightedNodeTerm> preferredNodeTerms;
  private final List<AffinityTerm> requiredAffinity;
  private final List<AffinityTerm> requiredAntiAffinity;
  private final List<AffinityTerm> preferredAffinity;
  private final List<AffinityTerm> preferredAntiAffinity;
  private final List<SpreadConstraint> hardSpread;
  private final List<SpreadConstraint> softSpread;
  private final List<String> problems;

  private PodPlacements(Pod pod) {
    this.pod = pod;
    Problems found = new Problems(pod.key());
    NodeAffinity nodeAffinity = pod.nodeAffinity();
    List<NodeSelectorTerm> required = nodeAffinity == null ? null : nodeAffinity.required();
    this.requiredNodes =
        NodeSelections.parse(pod.nodeSelector(), required, NODE_AFFINITY + REQUIRED + ".", found);
    this.nodeNamesConflict = namesConflict(required);
    this.preferredNodeTerms = preferredNodeTerms(nodeAffinity, found);
    PodAffinity affinity = pod.podAffinity();
    PodAffinity anti = pod.podAntiAffinity();
    String affinityField = "spec.affinity.podAffinity.";
    String antiField = "spec.affinity.podAntiAffinity.";
    this.requiredAffinity = required(pod, affinity, affinityField, found);
    this.requiredAntiAffinity = required(pod, anti, antiField, found);
    this.preferredAffinity = preferred(pod, affinity, affinityField, found);
    this.preferredAntiAffinity = preferred(pod, anti, antiField, found);
    List<SpreadConstraint> hard = new ArrayList<>();
    List<SpreadConstraint> soft = new ArrayList<>();
    List<TopologySpreadConstraint> constraints = pod.topologySpreadConstraints();
    for (int i = 0; i < constraints.size(); i++) {
      SpreadConstraint c =
          SpreadConstraints.parse(
              constraints.get(i),
              pod.metadata().labels(),
              "spec.topologySpreadConstraints[" + i + "]",
              found);
      if (c != null) {
        (c.hard() ? hard : soft).add(c);
      }
    }
    this.hardSpread = List.copyOf(hard);
    this.softSpread = List.copyOf(soft);
    this.problems = found.list();
  }

  /** Parses {@code pod}'s placement terms. */
  public static PodPlacement of(Pod pod) {
    return new PodPlacements(pod);
  }

  @Override
  public Pod pod() {
    return pod;
  }

  @Override
  public NodeSelection requiredNodes() {
    return requiredNodes;
  }

  @Override
  public boolean nodeNamesConflict() {
    return nodeNamesConflict;
  }

  @Override
  public List<WeightedNodeTerm> preferredNodeTerms() {
    return preferredNodeTerms;
  }

  @Override
  public List<AffinityTerm> requiredAffinity() {
    return requiredAffinity;
  }

  @Override
  public List<AffinityTerm> requiredAntiAffinity() {
    return requiredAntiAffinity;
  }

  @Override
  public List<AffinityTerm> preferredAffinity() {
    return preferredAffinity;
  }

  @Override
  public List<AffinityTerm> preferredAntiAffinity() {
    return preferredAntiAffinity;
  }

  @Override
  public boolean hasPreferredPodTerms() {
    return !preferredAffinity.isEmpty() || !preferredAntiAffinity.isEmpty();
  }

  @Override
  public List<SpreadConstraint> hardSpread() {
    return hardSpread;
  }

  @Override
  public List<SpreadConstraint> softSpread() {
    return softSpread;
  }

  @Override
  public List<String> problems() {
    return problems;
  }

  private static List<WeightedNodeTerm> preferredNodeTerms(NodeAffinity affinity, Problems found) {
    if (affinity == null || affinity.preferred().isEmpty()) {
      return List.of();
    }
    List<WeightedNodeTerm> out = new ArrayList<>();
    List<PreferredSchedulingTerm> preferred = affinity.preferred();
    for (int i = 0; i < preferred.size(); i++) {
      PreferredSchedulingTerm t = preferred.get(i);
      String field = NODE_AFFINITY + PREFERRED + "[" + i + "]";
      if (t.preference() == null) {
        found.add(field + ".preference", "a node selector term", null);
        continue;
      }
      if (t.weight() < 1 || t.weight() > 100) {
        found.add(field + ".weight", "a number from 1 to 100", t.weight());
      }
      NodeSelection term = NodeSelections.ofTerm(t.preference(), field + ".preference", found);
      if (t.weight() != 0) {
        out.add(new WeightedNodeTerm(t.weight(), term));
      }
    }
    return List.copyOf(out);
  }

  private static List<AffinityTerm> required(
      Pod pod, PodAffinity affinity, String field, Problems found) {
    if (affinity == null || affinity.required().isEmpty()) {
      return List.of();
    }
    List<PodAffinityTerm> terms = affinity.required();
    List<AffinityTerm> out = new ArrayList<>(terms.size());
    for (int i = 0; i < terms.size(); i++) {
      String at = field + REQUIRED + "[" + i + "]";
      if (terms.get(i) == null) {
        found.add(at, "a pod affinity term", null);
        continue;
      }
      out.add(AffinityTerms.parse(pod, terms.get(i), 0, at, found));
    }
    return List.copyOf(out);
  }

  private static List<AffinityTerm> preferred(
      Pod pod, PodAffinity affinity, String field, Problems found) {
    if (affinity == null || affinity.preferred().isEmpty()) {
      return List.of();
    }
    List<WeightedPodAffinityTerm> terms = affinity.preferred();
    List<AffinityTerm> out = new ArrayList<>(terms.size());
    for (int i = 0; i < terms.size(); i++) {
      WeightedPodAffinityTerm w = terms.get(i);
      String at = field + PREFERRED + "[" + i + "]";
      if (w.term() == null) {
        found.add(at + ".podAffinityTerm", "a pod affinity term", null);
        continue;
      }
      if (w.weight() < 1 || w.weight() > 100) {
        found.add(at + ".weight", "a number from 1 to 100", w.weight());
      }
      out.add(AffinityTerms.parse(pod, w.term(), w.weight(), at + ".podAffinityTerm", found));
    }
    return List.copyOf(out);
  }

  private static boolean namesConflict(List<NodeSelectorTerm> required) {
    if (required == null || required.isEmpty()) {
      return false;
    }
    Set<String> union = new HashSet<>();
    for (NodeSelectorTerm t : required) {
      Set<String> termNames = null;
      for (NodeSelectorRequirement r : t.matchFields()) {
        if (NodeSelections.NAME_FIELD.equals(r.key()) && "In".equals(r.operator())) {
          Set<String> names = new HashSet<>(r.values());
          if (termNames == null) {
            termNames = names;
          } else {
            termNames.retainAll(names);
          }
        }
      }
      if (termNames == null) {
        return false;
      }
      union.addAll(termNames);
    }
    return union.isEmpty();
  }
}
