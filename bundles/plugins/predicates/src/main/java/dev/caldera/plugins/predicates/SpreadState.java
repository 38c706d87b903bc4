package dev.caldera.plugins.predicates;

import dev.caldera.api.extension.Status;
import dev.caldera.api.placement.SpreadConstraint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The pod topology spread pre-filter state: per hard constraint, the number of matching pods in
 * each eligible domain and the global minimum. Immutable once built, so copies share it.
 */
final class SpreadState {

  private final List<SpreadConstraint> constraints;
  private final List<Map<String, Integer>> countsByDomain;
  private final int[] minMatch;
  private final boolean[] selfMatch;

  private SpreadState(
      List<SpreadConstraint> constraints,
      List<Map<String, Integer>> countsByDomain,
      boolean[] selfMatch) {
    this.constraints = constraints;
    this.countsByDomain = countsByDomain;
    this.selfMatch = selfMatch;
    this.minMatch = new int[constraints.size()];
    for (int i = 0; i < constraints.size(); i++) {
      Map<String, Integer> counts = countsByDomain.get(i);
      // Fewer eligible domains than minDomains: the global minimum is taken as 0.
      if (counts.size() < constraints.get(i).minDomains()) {
        minMatch[i] = 0;
      } else {
        int min = Integer.MAX_VALUE;
        for (int n : counts.values()) {
          min = Math.min(min, n);
        }
        minMatch[i] = min;
      }
    }
  }

  /** Collects the per-domain counts; {@link #domain} is called once per eligible node. */
  static final class Builder {
    private final List<SpreadConstraint> constraints;
    private final List<Map<String, Integer>> counts = new ArrayList<>();

    Builder(List<SpreadConstraint> constraints) {
      this.constraints = constraints;
      for (int i = 0; i < constraints.size(); i++) {
        counts.add(new HashMap<>());
      }
    }

    /** Adds {@code matching} pods to the domain {@code value} of constraint {@code i}. */
    void domain(int i, String value, int matching) {
      counts.get(i).merge(value, matching, Integer::sum);
    }

    SpreadState build(Map<String, String> podLabels) {
      boolean[] self = new boolean[constraints.size()];
      for (int i = 0; i < self.length; i++) {
        self[i] = constraints.get(i).selects(podLabels);
      }
      return new SpreadState(constraints, counts, self);
    }
  }

  /**
   * Checks a node with these labels, constraint by constraint: a missing topology label is
   * unresolvable; {@code matching + self − min > maxSkew} is unschedulable. Null when it fits.
   */
  Status filter(Map<String, String> nodeLabels) {
    for (int i = 0; i < constraints.size(); i++) {
      SpreadConstraint c = constraints.get(i);
      String value = nodeLabels.get(c.topologyKey());
      if (value == null) {
        return Reasons.SPREAD_MISSING_LABEL_STATUS;
      }
      Integer matching = countsByDomain.get(i).get(value);
      int skew = (matching == null ? 0 : matching) + (selfMatch[i] ? 1 : 0) - minMatch[i];
      if (skew > c.maxSkew()) {
        return Reasons.SPREAD_STATUS;
      }
    }
    return null;
  }
}
