package dev.caldera.plugins.predicates;

import dev.caldera.api.model.LabelSelector;
import dev.caldera.api.model.LabelSelectorRequirement;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.TopologySpreadConstraint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A parsed DoNotSchedule topology spread constraint (upstream's {@code topologySpreadConstraint}):
 * the pod's values for {@code matchLabelKeys} are ANDed into the selector, {@code minDomains}
 * defaults to 1, node affinity is honoured and taints ignored unless the policies say otherwise.
 *
 * @param selector null selects no pod
 */
record SpreadConstraint(
    int maxSkew,
    String topologyKey,
    LabelSelector selector,
    int minDomains,
    boolean honorNodeAffinity,
    boolean honorNodeTaints) {

  static SpreadConstraint of(TopologySpreadConstraint c, Map<String, String> podLabels) {
    LabelSelector selector = c.labelSelector();
    if (selector != null && !c.matchLabelKeys().isEmpty()) {
      List<LabelSelectorRequirement> expressions = new ArrayList<>(selector.matchExpressions());
      for (String key : c.matchLabelKeys()) {
        String value = podLabels.get(key);
        if (value != null) {
          expressions.add(new LabelSelectorRequirement(key, "In", List.of(value)));
        }
      }
      selector = new LabelSelector(selector.matchLabels(), expressions);
    }
    return new SpreadConstraint(
        c.maxSkew(),
        c.topologyKey(),
        selector,
        c.minDomains() == null ? 1 : c.minDomains(),
        !"Ignore".equals(c.nodeAffinityPolicy()),
        "Honor".equals(c.nodeTaintsPolicy()));
  }

  /** Whether the selector selects a pod with these labels (the self-match of the incoming pod). */
  boolean selects(Map<String, String> labels) {
    return selector != null && selector.matches(labels);
  }

  /**
   * Whether an existing pod counts for the incoming pod's namespace: same namespace, not
   * terminating, selected. An empty selector counts no existing pod ({@code
   * countPodsMatchSelector}), though it still selects the incoming pod itself.
   */
  boolean counts(Pod existing, String namespace) {
    if (selector == null || selector.isEmpty()) {
      return false;
    }
    return existing.metadata().deletionTimestamp() == null
        && namespace.equals(existing.namespace())
        && selector.matches(existing.metadata().labels());
  }
}
