package dev.caldera.plugins.predicates;

import dev.caldera.api.model.LabelSelector;
import dev.caldera.api.model.LabelSelectorRequirement;
import dev.caldera.api.model.Namespace;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodAffinityTerm;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A parsed required pod (anti-)affinity term ({@code framework.AffinityTerm}): which pods it
 * selects (namespace and labels) and the topology key. The {@code matchLabelKeys} and {@code
 * mismatchLabelKeys} of the owning pod are merged into the selector as the API server does at pod
 * creation.
 *
 * @param namespaces the namespaces listed (or the owner's own when neither list nor selector is
 *     set)
 * @param namespaceSelector null selects no namespace, an empty selector every namespace
 * @param selector null selects no pod
 */
record AffinityTerm(
    Set<String> namespaces,
    LabelSelector namespaceSelector,
    LabelSelector selector,
    String topologyKey) {

  /** Parses {@code term} of {@code owner}. */
  static AffinityTerm of(Pod owner, PodAffinityTerm term) {
    Set<String> namespaces =
        term.namespaces().isEmpty() && term.namespaceSelector() == null
            ? Set.of(owner.namespace())
            : Set.copyOf(term.namespaces());
    return new AffinityTerm(
        namespaces,
        term.namespaceSelector(),
        withLabelKeys(term, owner.metadata().labels()),
        term.topologyKey());
  }

  /** Parses every term of {@code owner}. */
  static AffinityTerm[] all(Pod owner, List<PodAffinityTerm> terms) {
    AffinityTerm[] out = new AffinityTerm[terms.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = of(owner, terms.get(i));
    }
    return out;
  }

  private static LabelSelector withLabelKeys(PodAffinityTerm term, Map<String, String> labels) {
    LabelSelector selector = term.labelSelector();
    if (selector == null
        || (term.matchLabelKeys().isEmpty() && term.mismatchLabelKeys().isEmpty())) {
      return selector;
    }
    List<LabelSelectorRequirement> expressions = new ArrayList<>(selector.matchExpressions());
    for (String key : term.matchLabelKeys()) {
      String value = labels.get(key);
      if (value != null) {
        expressions.add(new LabelSelectorRequirement(key, "In", List.of(value)));
      }
    }
    for (String key : term.mismatchLabelKeys()) {
      String value = labels.get(key);
      if (value != null) {
        expressions.add(new LabelSelectorRequirement(key, "NotIn", List.of(value)));
      }
    }
    return new LabelSelector(selector.matchLabels(), expressions);
  }

  /**
   * This term with its namespace selector resolved against the cluster's namespaces (upstream's
   * {@code mergeAffinityTermNamespacesIfNotEmpty}, done for the incoming pod's own terms): the
   * matching namespaces join the list and the selector then selects none. An empty selector, which
   * selects every namespace, is kept.
   */
  AffinityTerm resolveNamespaces(List<Namespace> clusterNamespaces) {
    if (namespaceSelector == null || namespaceSelector.isEmpty()) {
      return this;
    }
    Set<String> merged = new HashSet<>(namespaces);
    for (Namespace ns : clusterNamespaces) {
      if (namespaceSelector.matches(ns.metadata().labels())) {
        merged.add(ns.metadata().name());
      }
    }
    return new AffinityTerm(Set.copyOf(merged), null, selector, topologyKey);
  }

  /**
   * Whether the term selects {@code pod}; {@code namespaceLabels} are the labels of the pod's
   * namespace (only read when the namespace selector was not resolved).
   */
  boolean matches(Pod pod, Map<String, String> namespaceLabels) {
    if (selector == null) {
      return false;
    }
    if (!namespaces.contains(pod.namespace()) && !namespaceSelected(namespaceLabels)) {
      return false;
    }
    return selector.matches(pod.metadata().labels());
  }

  private boolean namespaceSelected(Map<String, String> namespaceLabels) {
    if (namespaceSelector == null) {
      return false;
    }
    return namespaceSelector.matches(namespaceLabels == null ? Map.of() : namespaceLabels);
  }

  /** Whether {@code pod} matches every term (false for no terms). */
  static boolean matchesAll(AffinityTerm[] terms, Pod pod) {
    if (terms.length == 0) {
      return false;
    }
    for (AffinityTerm t : terms) {
      if (!t.matches(pod, null)) {
        return false;
      }
    }
    return true;
  }
}
