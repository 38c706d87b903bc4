package dev.caldera.api.placement;

import dev.caldera.api.model.NodeAffinity;
import dev.caldera.api.model.NodeSelectorRequirement;
import dev.caldera.api.model.NodeSelectorTerm;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodAffinity;
import dev.caldera.api.model.PodAffinityTerm;
import dev.caldera.api.model.PreferredSchedulingTerm;
import dev.caldera.api.model.TopologySpreadConstraint;
import dev.caldera.api.model.WeightedPodAffinityTerm;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One pod's placement terms, parsed once (what kube-scheduler's {@code PodInfo} holds): its
 * required node selection, its preferred node terms, its required and preferred pod affinity and
 * anti-affinity terms, and its topology spread constraints. A pod without any of them costs a few
 * field reads.
 *
 * <p>Parsing never fails: what Kubernetes would reject keeps the meaning the scheduler has always
 * given it (a node selector term that does not parse matches no node, a label requirement with an
 * unknown operator matches no pod, a spread constraint with an unknown {@code whenUnsatisfiable} is
 * left out, a missing topology key is {@code ""}, which no node has), and {@link #problems()} says
 * what was wrong, one line per field naming the pod, the field and what was expected.
 */
public final class PodPlacement {

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

  /** A preferred node affinity term: its weight and the one term as a selection. */
  public record WeightedNodeTerm(int weight, NodeSelection term) {}

  private PodPlacement(Pod pod) {
    this.pod = pod;
    Problems found = new Problems(pod.key());
    NodeAffinity nodeAffinity = pod.nodeAffinity();
    List<NodeSelectorTerm> required = nodeAffinity == null ? null : nodeAffinity.required();
    this.requiredNodes =
        NodeSelection.parse(pod.nodeSelector(), required, NODE_AFFINITY + REQUIRED + ".", found);
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
          SpreadConstraint.parse(
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
    return new PodPlacement(pod);
  }

  /** The pod parsed. */
  public Pod pod() {
    return pod;
  }

  /**
   * {@code spec.nodeSelector} and required node affinity together; {@link NodeSelection#isEmpty()}
   * when they allow every node.
   */
  public NodeSelection requiredNodes() {
    return requiredNodes;
  }

  /**
   * Whether the required terms restrict the pod to node names ({@code metadata.name In} fields in
   * every term) whose union is empty: upstream's NodeAffinity PreFilter then rejects the pod.
   */
  public boolean nodeNamesConflict() {
    return nodeNamesConflict;
  }

  /** The preferred node affinity terms with a non-zero weight and a preference. */
  public List<WeightedNodeTerm> preferredNodeTerms() {
    return preferredNodeTerms;
  }

  /** The required pod affinity terms, namespace selectors unresolved. */
  public List<AffinityTerm> requiredAffinity() {
    return requiredAffinity;
  }

  /** The required pod anti-affinity terms, namespace selectors unresolved. */
  public List<AffinityTerm> requiredAntiAffinity() {
    return requiredAntiAffinity;
  }

  /** The preferred pod affinity terms with their weights. */
  public List<AffinityTerm> preferredAffinity() {
    return preferredAffinity;
  }

  /** The preferred pod anti-affinity terms with their weights. */
  public List<AffinityTerm> preferredAntiAffinity() {
    return preferredAntiAffinity;
  }

  /**
   * Whether {@code pod} has any pod affinity or anti-affinity term, required or preferred (what
   * puts a pod on kube-scheduler's {@code NodeInfo.PodsWithAffinity}), read without parsing.
   */
  public static boolean hasPodAffinityTerms(Pod pod) {
    return hasTerms(pod.podAffinity()) || hasTerms(pod.podAntiAffinity());
  }

  /**
   * Whether {@code pod} has required pod anti-affinity terms (kube-scheduler's {@code
   * NodeInfo.PodsWithRequiredAntiAffinity}), read without parsing.
   */
  public static boolean hasRequiredAntiAffinity(Pod pod) {
    PodAffinity anti = pod.podAntiAffinity();
    return anti != null && !anti.required().isEmpty();
  }

  /**
   * Whether {@code pod} has preferred pod affinity or anti-affinity terms, read without parsing.
   */
  public static boolean hasPreferredPodTerms(Pod pod) {
    return (pod.podAffinity() != null && !pod.podAffinity().preferred().isEmpty())
        || (pod.podAntiAffinity() != null && !pod.podAntiAffinity().preferred().isEmpty());
  }

  private static boolean hasTerms(PodAffinity terms) {
    return terms != null && (!terms.required().isEmpty() || !terms.preferred().isEmpty());
  }

  /** Whether the pod has preferred pod affinity or anti-affinity terms. */
  public boolean hasPreferredPodTerms() {
    return !preferredAffinity.isEmpty() || !preferredAntiAffinity.isEmpty();
  }

  /** The {@code DoNotSchedule} spread constraints, in the pod's order. */
  public List<SpreadConstraint> hardSpread() {
    return hardSpread;
  }

  /** The {@code ScheduleAnyway} spread constraints, in the pod's order. */
  public List<SpreadConstraint> softSpread() {
    return softSpread;
  }

  /** What Kubernetes would have rejected, one line per field; empty when all is well. */
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
      NodeSelection term = NodeSelection.ofTerm(t.preference(), field + ".preference", found);
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
      out.add(AffinityTerm.parse(pod, terms.get(i), 0, at, found));
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
      out.add(AffinityTerm.parse(pod, w.term(), w.weight(), at + ".podAffinityTerm", found));
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
        if (NodeSelection.NAME_FIELD.equals(r.key()) && "In".equals(r.operator())) {
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
