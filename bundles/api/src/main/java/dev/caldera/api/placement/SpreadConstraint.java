package dev.caldera.api.placement;

import dev.caldera.api.model.Node;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.Taint;
import dev.caldera.api.model.Toleration;
import dev.caldera.api.model.TopologySpreadConstraint;
import java.util.List;
import java.util.Map;

/**
 * A parsed topology spread constraint (upstream's {@code topologySpreadConstraint}): the owner's
 * values for {@code matchLabelKeys} are ANDed into the selector (In), {@code minDomains} defaults
 * to 1, and a node counts for the domains only if it matches the owner's required node selection
 * (unless {@code nodeAffinityPolicy: Ignore}) and, with {@code nodeTaintsPolicy: Honor}, has no
 * taint the owner does not tolerate. The topology key is {@code ""} when missing.
 *
 * @param hard {@code whenUnsatisfiable: DoNotSchedule} (a filter); else {@code ScheduleAnyway} (a
 *     score)
 */
public record SpreadConstraint(
    int maxSkew,
    String topologyKey,
    Selector selector,
    int minDomains,
    boolean honorNodeAffinity,
    boolean honorNodeTaints,
    boolean hard) {

  public static final String DO_NOT_SCHEDULE = "DoNotSchedule";
  public static final String SCHEDULE_ANYWAY = "ScheduleAnyway";
  private static final String HONOR = "Honor";
  private static final String IGNORE = "Ignore";

  /**
   * Parses {@code c} of a pod with {@code podLabels}; null (reported) when {@code
   * whenUnsatisfiable} is neither DoNotSchedule nor ScheduleAnyway.
   */
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
    Selector selector = Selector.parse(c.labelSelector(), field + ".labelSelector", problems);
    for (String key : c.matchLabelKeys()) {
      String value = podLabels.get(key);
      if (value != null) {
        selector = selector.with(key, "In", value);
      }
    }
    return new SpreadConstraint(
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
   * {@code matchNodeInclusionPolicies}: whether {@code node} counts for this constraint's domains
   * when {@code owner} is placed: it must match the owner's required node selection unless the
   * affinity policy is Ignore, and carry no NoSchedule/NoExecute taint the owner does not tolerate
   * when the taints policy is Honor.
   */
  public boolean includes(PodPlacement owner, Node node) {
    if (honorNodeAffinity && !owner.requiredNodes().matches(node)) {
      return false;
    }
    return !honorNodeTaints || !hasUntoleratedTaint(node.taints(), owner.pod().tolerations());
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

  /** Whether the selector selects a pod with these labels (the owner's own match). */
  public boolean selects(Map<String, String> labels) {
    return selector.matches(labels);
  }

  /**
   * {@code countPodsMatchSelector} for one pod: it counts when it is in the owner's namespace, not
   * terminating and selected. An empty selector counts no existing pod, though it still {@link
   * #selects} the owner itself.
   */
  public boolean counts(Pod existing, String namespace) {
    if (selector.isEmpty() || selector.isNothing()) {
      return false;
    }
    return existing.metadata().deletionTimestamp() == null
        && namespace.equals(existing.namespace())
        && selector.matches(existing.metadata().labels());
  }
}
