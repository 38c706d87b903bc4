package dev.caldera.support.placement;

import dev.caldera.api.model.Node;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.Taint;
import dev.caldera.api.model.Toleration;
import dev.caldera.api.model.TopologySpreadConstraint;
import dev.caldera.api.placement.PodPlacement;
import dev.caldera.api.placement.Selector;
import dev.caldera.api.placement.SpreadConstraint;
import java.util.List;
import java.util.Map;

/**
 * The parser of topology spread constraints into {@link SpreadConstraint}s (upstream's {@code
 * topologySpreadConstraint}) and their one implementation: the owner's values for {@code
 * matchLabelKeys} are ANDed into the selector (In), {@code minDomains} defaults to 1.
 */
public final class SpreadConstraints {

  /** One parsed constraint; equal when every field is. */
  private record Parsed(
      int maxSkew,
      String topologyKey,
      Selector selector,
      int minDomains,
      boolean honorNodeAffinity,
      boolean honorNodeTaints,
      boolean hard)
      implements SpreadConstraint {

    @Override
    public boolean includes(PodPlacement owner, Node node) {
      if (honorNodeAffinity && !owner.requiredNodes().matches(node)) {
        return false;
      }
      return !honorNodeTaints || !hasUntoleratedTaint(node.taints(), owner.pod().tolerations());
    }

    @Override
    public boolean selects(Map<String, String> labels) {
      return selector.matches(labels);
    }

    @Override
    public boolean counts(Pod existing, String namespace) {
      if (selector.isEmpty() || selector.isNothing()) {
        return false;
      }
      return existing.metadata().deletionTimestamp() == null
          && namespace.equals(existing.namespace())
          && selector.matches(existing.metadata().labels());
    }
  }

  private static final String DO_NOT_SCHEDULE = SpreadConstraint.DO_NOT_SCHEDULE;
  private static final String SCHEDULE_ANYWAY = SpreadConstraint.SCHEDULE_ANYWAY;
  private static final String HONOR = "Honor";
  private static final String IGNORE = "Ignore";

  /**
   * Parses {@code c} of a pod with {@code podLabels}; null (reported) when {@code
   * whenUnsatisfiable} is neither DoNotSchedule nor ScheduleAnyway.
   */
  private SpreadConstraints() {}

  /**
   * A constraint of the given fields, as a plugin's own defaults (nodeorder's default constraints
   * of a pod controlled by a ReplicaSet, StatefulSet, ...) are written.
   *
   * @param hard {@code whenUnsatisfiable: DoNotSchedule} (a filter); else {@code ScheduleAnyway} (a
   *     score)
   */
  public static SpreadConstraint of(
      int maxSkew,
      String topologyKey,
      Selector selector,
      int minDomains,
      boolean honorNodeAffinity,
      boolean honorNodeTaints,
      boolean hard) {
    return new Parsed(
        maxSkew, topologyKey, selector, minDomains, honorNodeAffinity, honorNodeTaints, hard);
  }

  static SpreadConstraint parse(
      TopologySpreadConstraint c, Map<String, String> podLabels, String field, Problems problems) {
    boolean hard = DO_NOT_SCHEDULE.equals(c.whenUnsatisfiable());
    if (!hard && !SCHEDULE_ANYWAY.equals(c.whenUnsatisfiable())) {
      problems.add(
          field + ".whenUnsatisfiable",
          DO_NOT_SCHEDULE + " or " + SCHEDULE_ANYWAY,
          c.whenUnsatisfiable());
      return null;
    }
    if (c.maxSkew() <= 0) {
      problems.add(field + ".maxSkew", "a number greater than 0", c.maxSkew());
    }
    if (c.minDomains() != null && c.minDomains() <= 0) {
      problems.add(field + ".minDomains", "a number greater than 0", c.minDomains());
    }
    if (c.topologyKey() == null || c.topologyKey().isEmpty()) {
      problems.add(field + ".topologyKey", "a node label key", c.topologyKey());
    }
    checkPolicy(c.nodeAffinityPolicy(), field + ".nodeAffinityPolicy", problems);
    checkPolicy(c.nodeTaintsPolicy(), field + ".nodeTaintsPolicy", problems);
    LabelSelectors selector =
        LabelSelectors.parse(c.labelSelector(), field + ".labelSelector", problems);
    for (String key : c.matchLabelKeys()) {
      String value = podLabels.get(key);
      if (value != null) {
        selector = selector.with(key, "In", value);
      }
    }
    return new Parsed(
        c.maxSkew(),
        c.topologyKey() == null ? "" : c.topologyKey(),
        selector,
        c.minDomains() == null ? 1 : c.minDomains(),
        c.nodeAffinityPolicy() == null || HONOR.equals(c.nodeAffinityPolicy()),
        HONOR.equals(c.nodeTaintsPolicy()),
        hard);
  }

  private static void checkPolicy(String policy, String field, Problems problems) {
    if (policy != null && !HONOR.equals(policy) && !IGNORE.equals(policy)) {
      problems.add(field, HONOR + " or " + IGNORE, policy);
    }
  }

  /**
   * Whether some NoSchedule or NoExecute taint is not tolerated ({@code
   * FindMatchingUntoleratedTaint} with {@code DoNotScheduleTaintsFilterFunc}).
   */
  public static boolean hasUntoleratedTaint(List<Taint> taints, List<Toleration> tolerations) {
    for (int i = 0; i < taints.size(); i++) {
      Taint taint = taints.get(i);
      String effect = taint.effect();
      if (("NoSchedule".equals(effect) || "NoExecute".equals(effect))
          && !tolerated(taint, tolerations)) {
        return true;
      }
    }
    return false;
  }

  private static boolean tolerated(Taint taint, List<Toleration> tolerations) {
    for (int i = 0; i < tolerations.size(); i++) {
      if (tolerations.get(i).tolerates(taint)) {
        return true;
      }
    }
    return false;
  }
}
