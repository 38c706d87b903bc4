package dev.caldera.api.placement;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.model.Pod;
import java.util.List;
import org.osgi.annotation.versioning.ProviderType;

/**
 * The session's topology counts over the pods counted on its nodes, shared by every plugin (what
 * kube-scheduler's inter-pod affinity and topology spread plugins each compute in their PreFilter
 * and PreScore over the snapshot's {@code NodeInfo.Pods}). Reached through {@link
 * dev.caldera.api.Session#topology()}.
 *
 * <ul>
 *   <li>What is counted: the pods of every session node's {@link NodeInfo#pods()} (its tasks less
 *       those evicted in this session), each on the node it is counted on.
 *   <li>Who updates it: the framework, whenever a task starts or stops being counted (allocate,
 *       pipeline, evict and their undo, directly or through a statement and its discard). Plugins
 *       never update it and need no event handler for it.
 *   <li>When it is computed: a count is computed on its first request in a session, for its key
 *       (the terms, the incoming pod's namespace and labels, or the selector and namespace), and
 *       then kept up to date from the changes since; requests with equal keys, from any plugin,
 *       share it.
 *   <li>Results: {@link TopologyCounts} are a read-only snapshot that later changes do not alter; a
 *       plugin that simulates placements (preemption's {@code simulate*} functions) works on a
 *       {@link TopologyCounts#copy()}.
 *   <li>Threading: safe to call from any thread; the framework changes placements only on the
 *       session's thread, between predicate and scoring rounds.
 * </ul>
 */
@ProviderType
public interface SessionTopology {

  /**
   * Required pod affinity (the incoming pod's own terms, namespaces resolved): for each counted pod
   * that matches every term ({@link AffinityTerm#matches} with its namespace labels unknown), +1 on
   * the pair of each term's topology key on its node. Empty for no terms.
   */
  TopologyCounts matchingAll(List<AffinityTerm> terms);

  /**
   * For each term and each counted pod the term matches (its namespace's labels, null when the
   * session does not know the namespace), the term's weight, or 1 for a required term (weight 0),
   * on the pair of the term's topology key on the pod's node. Required anti-affinity and the
   * preferred terms of the incoming pod read this.
   */
  TopologyCounts matchingEach(List<AffinityTerm> terms);

  /**
   * Existing pods' required anti-affinity: for each counted pod with required anti-affinity terms,
   * +1 for each of its terms (as written) that matches {@code incoming} (its namespace's labels,
   * empty when unknown), on the pair of the term's topology key on that pod's node. Read from the
   * nodes' {@link NodeInfo#podsWithRequiredAntiAffinity()}.
   */
  TopologyCounts existingRequiredAntiAffinity(Pod incoming);

  /**
   * Existing pods' preferred terms: for each counted pod with preferred pod affinity terms, +weight
   * for each preferred affinity term and −weight for each preferred anti-affinity term that matches
   * {@code incoming} (its namespace's labels, empty when unknown), on the pair of the term's
   * topology key on that pod's node. Read from the nodes' {@link NodeInfo#podsWithAffinity()}.
   */
  TopologyCounts existingPreferred(Pod incoming);

  /** How many counted pods have preferred pod affinity or anti-affinity terms. */
  int podsWithPreferredPodTerms();

  /**
   * Topology spread: how many pods counted on {@code node} {@link SpreadConstraint#counts count}
   * for a constraint with this selector in {@code namespace} (in the namespace, not terminating,
   * selected; none for an empty selector). 0 for a node the session does not list.
   */
  int matchingPods(NodeInfo node, Selector selector, String namespace);
}
