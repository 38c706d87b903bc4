package dev.caldera.api.placement;

import dev.caldera.api.model.Namespace;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodAffinityTerm;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A parsed pod (anti-)affinity term of one pod ({@code framework.AffinityTerm}): the namespaces it
 * covers (the owner's own when neither a list nor a namespace selector is given), the namespace
 * selector, the label selector with the owner's values for {@code matchLabelKeys} (In) and {@code
 * mismatchLabelKeys} (NotIn) ANDed in as the API server does at pod creation, the topology key
 * ({@code ""} when missing, which no node has) and the weight (0 for a required term).
 */
public final class AffinityTerm {

  private final int weight;
  private final String topologyKey;
  private final Set<String> namespaces;
  private final Selector namespaceSelector;
  private final Selector selector;

  private AffinityTerm(
      int weight,
      String topologyKey,
      Set<String> namespaces,
      Selector namespaceSelector,
      Selector selector) {
    this.weight = weight;
    this.topologyKey = topologyKey;
    this.namespaces = namespaces;
    this.namespaceSelector = namespaceSelector;
    this.selector = selector;
  }

  /** Parses {@code term} of {@code owner} without reporting problems. */
  public static AffinityTerm of(Pod owner, PodAffinityTerm term, int weight) {
    return parse(owner, term, weight, "podAffinityTerm", null);
  }

  static AffinityTerm parse(
      Pod owner, PodAffinityTerm term, int weight, String field, Problems problems) {
    Set<String> namespaces =
        term.namespaces().isEmpty() && term.namespaceSelector() == null
            ? Set.of(owner.namespace())
            : Set.copyOf(term.namespaces());
    Selector selector = Selector.parse(term.labelSelector(), field + ".labelSelector", problems);
    Map<String, String> labels = owner.metadata().labels();
    for (String key : term.matchLabelKeys()) {
      String value = labels.get(key);
      if (value != null) {
        selector = selector.with(key, "In", value);
      }
    }
    for (String key : term.mismatchLabelKeys()) {
      String value = labels.get(key);
      if (value != null) {
        selector = selector.with(key, "NotIn", value);
      }
    }
    String topologyKey = term.topologyKey();
    if ((topologyKey == null || topologyKey.isEmpty()) && problems != null) {
      problems.add(field + ".topologyKey", "a node label key", topologyKey);
    }
    return new AffinityTerm(
        weight,
        topologyKey == null ? "" : topologyKey,
        namespaces,
        Selector.parse(term.namespaceSelector(), field + ".namespaceSelector", problems),
        selector);
  }

  /** The term's weight; 0 for a required term. */
  public int weight() {
    return weight;
  }

  /** The node label whose values are the topology domains; {@code ""} when the term has none. */
  public String topologyKey() {
    return topologyKey;
  }

  /** The namespaces listed (or the owner's own). */
  public Set<String> namespaces() {
    return namespaces;
  }

  /** The namespace selector; {@link Selector#NOTHING} when the term has none. */
  public Selector namespaceSelector() {
    return namespaceSelector;
  }

  /** The label selector, {@code matchLabelKeys} and {@code mismatchLabelKeys} included. */
  public Selector selector() {
    return selector;
  }

  /**
   * {@code AffinityTerm.Matches}: the target's namespace is covered and its labels match. {@code
   * namespaceLabels} are the labels of the target's namespace, or null if that namespace is not
   * known, in which case only a match-all namespace selector covers it (kube-scheduler resolves the
   * incoming pod's namespace selectors against the namespaces it knows, and reads an unknown
   * namespace's labels as empty for an existing pod's terms: pass an empty map for that).
   */
  public boolean matches(Pod target, Map<String, String> namespaceLabels) {
    if (selector.isNothing()) {
      return false;
    }
    boolean covered =
        namespaces.contains(target.namespace())
            || (namespaceLabels == null
                ? namespaceSelector.isEmpty()
                : namespaceSelector.matches(namespaceLabels));
    return covered && selector.matches(target.metadata().labels());
  }

  /**
   * This term with its namespace selector resolved against the cluster's namespaces (upstream's
   * {@code mergeAffinityTermNamespacesIfNotEmpty}, done for the incoming pod's own terms): the
   * matching namespaces join the list and the selector then selects none. An empty selector, which
   * selects every namespace, is kept.
   */
  public AffinityTerm resolveNamespaces(List<Namespace> clusterNamespaces) {
    if (namespaceSelector.isNothing() || namespaceSelector.isEmpty()) {
      return this;
    }
    Set<String> merged = new HashSet<>(namespaces);
    for (Namespace ns : clusterNamespaces) {
      if (namespaceSelector.matches(ns.metadata().labels())) {
        merged.add(ns.metadata().name());
      }
    }
    return new AffinityTerm(weight, topologyKey, Set.copyOf(merged), Selector.NOTHING, selector);
  }

  /** Whether {@code pod} matches every term, its namespace labels unknown (false for no terms). */
  public static boolean matchesAll(List<AffinityTerm> terms, Pod pod) {
    if (terms.isEmpty()) {
      return false;
    }
    for (int i = 0; i < terms.size(); i++) {
      if (!terms.get(i).matches(pod, null)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Terms are equal when weight, topology key, namespaces and both selectors are, so the same term
   * parsed from two pods of a job is one key of {@link SessionTopology}.
   */
  @Override
  public boolean equals(Object o) {
    return o instanceof AffinityTerm other
        && weight == other.weight
        && topologyKey.equals(other.topologyKey)
        && namespaces.equals(other.namespaces)
        && namespaceSelector.equals(other.namespaceSelector)
        && selector.equals(other.selector);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(weight, topologyKey, namespaces, namespaceSelector, selector);
  }
}
