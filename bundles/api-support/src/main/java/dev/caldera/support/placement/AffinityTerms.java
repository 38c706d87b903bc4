package dev.caldera.support.placement;

import dev.caldera.api.model.Namespace;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodAffinityTerm;
import dev.caldera.api.placement.AffinityTerm;
import dev.caldera.api.placement.Selector;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The parser of pod (anti-)affinity terms into {@link AffinityTerm}s ({@code
 * framework.AffinityTerm}), and the one implementation of that view: the owner's values for {@code
 * matchLabelKeys} (In) and {@code mismatchLabelKeys} (NotIn) are ANDed into the label selector as
 * the API server does at pod creation.
 */
public final class AffinityTerms implements AffinityTerm {

  private final int weight;
  private final String topologyKey;
  private final Set<String> namespaces;
  private final LabelSelectors namespaceSelector;
  private final LabelSelectors selector;

  private AffinityTerms(
      int weight,
      String topologyKey,
      Set<String> namespaces,
      LabelSelectors namespaceSelector,
      LabelSelectors selector) {
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

  static AffinityTerms parse(
      Pod owner, PodAffinityTerm term, int weight, String field, Problems problems) {
    Set<String> namespaces =
        term.namespaces().isEmpty() && term.namespaceSelector() == null
            ? Set.of(owner.namespace())
            : Set.copyOf(term.namespaces());
    LabelSelectors selector =
        LabelSelectors.parse(term.labelSelector(), field + ".labelSelector", problems);
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
    return new AffinityTerms(
        weight,
        topologyKey == null ? "" : topologyKey,
        namespaces,
        LabelSelectors.parse(term.namespaceSelector(), field + ".namespaceSelector", problems),
        selector);
  }

  @Override
  public int weight() {
    return weight;
  }

  @Override
  public String topologyKey() {
    return topologyKey;
  }

  @Override
  public Set<String> namespaces() {
    return namespaces;
  }

  @Override
  public Selector namespaceSelector() {
    return namespaceSelector;
  }

  @Override
  public Selector selector() {
    return selector;
  }

  @Override
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

  @Override
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
    return new AffinityTerms(
        weight, topologyKey, Set.copyOf(merged), LabelSelectors.NOTHING, selector);
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
   * parsed from two pods of a job is one key of {@link dev.caldera.api.placement.SessionTopology}.
   */
  @Override
  public boolean equals(Object o) {
    return o instanceof AffinityTerms other
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
