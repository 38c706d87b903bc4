package dev.caldera.plugins.nodeorder;

import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodAffinityTerm;
import java.util.Map;
import java.util.Set;

/**
 * A compiled pod (anti-)affinity term of one pod ({@code framework.AffinityTerm}): the namespaces
 * it covers (its own when none are named and there is no namespace selector), the namespace
 * selector, the label selector with the owner's {@code matchLabelKeys} / {@code mismatchLabelKeys}
 * merged in, the topology key and the term's weight.
 */
final class AffinityTerm {

  final int weight;
  final String topologyKey;
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

  static AffinityTerm of(Pod owner, PodAffinityTerm term, int weight) {
    Set<String> namespaces =
        term.namespaces().isEmpty() && term.namespaceSelector() == null
            ? Set.of(owner.namespace())
            : Set.copyOf(term.namespaces());
    Selector selector = Selector.of(term.labelSelector());
    Map<String, String> labels = owner.metadata().labels();
    if (term.labelSelector() != null) {
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
    }
    return new AffinityTerm(
        weight,
        term.topologyKey() == null ? "" : term.topologyKey(),
        namespaces,
        Selector.of(term.namespaceSelector()),
        selector);
  }

  /**
   * {@code AffinityTerm.Matches}: the target's namespace is covered and its labels match. {@code
   * namespaceLabels} are the labels of the target's namespace, or null if that namespace is not
   * known, in which case only a match-all namespace selector covers it (kube-scheduler resolves the
   * incoming pod's namespace selectors against the namespaces it knows).
   */
  boolean matches(Pod target, Map<String, String> namespaceLabels) {
    boolean covered =
        namespaces.contains(target.namespace())
            || (namespaceLabels == null
                ? namespaceSelector.isEmpty()
                : namespaceSelector.matches(namespaceLabels));
    return covered && selector.matches(target.metadata().labels());
  }
}
