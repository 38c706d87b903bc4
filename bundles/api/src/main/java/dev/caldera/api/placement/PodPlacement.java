package dev.caldera.api.placement;

import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodAffinity;
import java.util.List;
import org.osgi.annotation.versioning.ProviderType;

/**
 * One pod's placement terms, parsed once (what kube-scheduler's {@code PodInfo} holds): its
 * required node selection, its preferred node terms, its required and preferred pod affinity and
 * anti-affinity terms, and its topology spread constraints. Reached through {@link
 * dev.caldera.api.info.TaskInfo#placement()}; parsed by the api-support bundle ({@code
 * PodPlacements}).
 *
 * <p>Parsing never fails: what Kubernetes would reject keeps the meaning the scheduler has always
 * given it (a node selector term that does not parse matches no node, a label requirement with an
 * unknown operator matches no pod, a spread constraint with an unknown {@code whenUnsatisfiable} is
 * left out, a missing topology key is {@code ""}, which no node has), and {@link #problems()} says
 * what was wrong, one line per field naming the pod, the field and what was expected.
 *
 * <p>Immutable; safe to share between threads.
 */
@ProviderType
public interface PodPlacement {

  /** A preferred node affinity term: its weight and the one term as a selection. */
  record WeightedNodeTerm(int weight, NodeSelection term) {}

  /** The pod parsed. */
  Pod pod();

  /**
   * {@code spec.nodeSelector} and required node affinity together; {@link NodeSelection#isEmpty()}
   * when they allow every node.
   */
  NodeSelection requiredNodes();

  /**
   * Whether the required terms restrict the pod to node names ({@code metadata.name In} fields in
   * every term) whose union is empty: upstream's NodeAffinity PreFilter then rejects the pod.
   */
  boolean nodeNamesConflict();

  /** The preferred node affinity terms with a non-zero weight and a preference. */
  List<WeightedNodeTerm> preferredNodeTerms();

  /** The required pod affinity terms, namespace selectors unresolved. */
  List<AffinityTerm> requiredAffinity();

  /** The required pod anti-affinity terms, namespace selectors unresolved. */
  List<AffinityTerm> requiredAntiAffinity();

  /** The preferred pod affinity terms with their weights. */
  List<AffinityTerm> preferredAffinity();

  /** The preferred pod anti-affinity terms with their weights. */
  List<AffinityTerm> preferredAntiAffinity();

  /** Whether the pod has preferred pod affinity or anti-affinity terms. */
  default boolean hasPreferredPodTerms() {
    return !preferredAffinity().isEmpty() || !preferredAntiAffinity().isEmpty();
  }

  /** The {@code DoNotSchedule} spread constraints, in the pod's order. */
  List<SpreadConstraint> hardSpread();

  /** The {@code ScheduleAnyway} spread constraints, in the pod's order. */
  List<SpreadConstraint> softSpread();

  /** What Kubernetes would have rejected, one line per field; empty when all is well. */
  List<String> problems();

  /**
   * Whether {@code pod} has any pod affinity or anti-affinity term, required or preferred (what
   * puts a pod on kube-scheduler's {@code NodeInfo.PodsWithAffinity}), read without parsing.
   */
  static boolean hasPodAffinityTerms(Pod pod) {
    return hasTerms(pod.podAffinity()) || hasTerms(pod.podAntiAffinity());
  }

  /**
   * Whether {@code pod} has required pod anti-affinity terms (kube-scheduler's {@code
   * NodeInfo.PodsWithRequiredAntiAffinity}), read without parsing.
   */
  static boolean hasRequiredAntiAffinity(Pod pod) {
    PodAffinity anti = pod.podAntiAffinity();
    return anti != null && !anti.required().isEmpty();
  }

  /**
   * Whether {@code pod} has preferred pod affinity or anti-affinity terms, read without parsing.
   */
  static boolean hasPreferredPodTerms(Pod pod) {
    return (pod.podAffinity() != null && !pod.podAffinity().preferred().isEmpty())
        || (pod.podAntiAffinity() != null && !pod.podAntiAffinity().preferred().isEmpty());
  }

  private static boolean hasTerms(PodAffinity terms) {
    return terms != null && (!terms.required().isEmpty() || !terms.preferred().isEmpty());
  }
}
