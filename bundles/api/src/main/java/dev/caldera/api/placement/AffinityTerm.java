package dev.caldera.api.placement;

import dev.caldera.api.model.Namespace;
import dev.caldera.api.model.Pod;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.osgi.annotation.versioning.ProviderType;

/**
 * A parsed pod (anti-)affinity term of one pod ({@code framework.AffinityTerm}): the namespaces it
 * covers (the owner's own when neither a list nor a namespace selector is given), the namespace
 * selector, the label selector with the owner's values for {@code matchLabelKeys} (In) and {@code
 * mismatchLabelKeys} (NotIn) ANDed in as the API server does at pod creation, the topology key
 * ({@code ""} when missing, which no node has) and the weight (0 for a required term).
 *
 * <p>Terms are equal when weight, topology key, namespaces and both selectors are, so the same term
 * parsed from two pods of a job is one key of {@link SessionTopology}. Immutable; safe to share
 * between threads. Parsed by the api-support bundle ({@code AffinityTerms}).
 */
@ProviderType
public interface AffinityTerm {

  /** The term's weight; 0 for a required term. */
  int weight();

  /** The node label whose values are the topology domains; {@code ""} when the term has none. */
  String topologyKey();

  /** The namespaces listed (or the owner's own). */
  Set<String> namespaces();

  /** The namespace selector; {@link Selector#isNothing() nothing} when the term has none. */
  Selector namespaceSelector();

  /** The label selector, {@code matchLabelKeys} and {@code mismatchLabelKeys} included. */
  Selector selector();

  /**
   * {@code AffinityTerm.Matches}: the target's namespace is covered and its labels match. {@code
   * namespaceLabels} are the labels of the target's namespace, or null if that namespace is not
   * known, in which case only a match-all namespace selector covers it (kube-scheduler resolves the
   * incoming pod's namespace selectors against the namespaces it knows, and reads an unknown
   * namespace's labels as empty for an existing pod's terms: pass an empty map for that).
   */
  boolean matches(Pod target, Map<String, String> namespaceLabels);

  /**
   * This term with its namespace selector resolved against the cluster's namespaces (upstream's
   * {@code mergeAffinityTermNamespacesIfNotEmpty}, done for the incoming pod's own terms): the
   * matching namespaces join the list and the selector then selects none. An empty selector, which
   * selects every namespace, is kept.
   */
  AffinityTerm resolveNamespaces(List<Namespace> clusterNamespaces);
}
