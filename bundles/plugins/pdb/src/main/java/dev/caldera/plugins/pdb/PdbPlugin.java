package dev.caldera.plugins.pdb;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.Session;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.LabelSelector;
import dev.caldera.api.model.LabelSelectorRequirement;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodDisruptionBudget;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Volcano's {@code pdb} plugin: of a list of eviction candidates, keeps those whose eviction does
 * not take any matching PodDisruptionBudget below zero. Each call starts from every budget's {@code
 * status.disruptionsAllowed} and counts down across the candidates in their order. Pods without
 * labels are never kept; budgets with an empty selector match nothing, and a pod the budget already
 * lists in {@code status.disruptedPods} does not count against it.
 *
 * <p>Registered as a Preemptable and Reclaimable filter, and as a VictimTasks function, where the
 * kept list <em>is</em> the victim list (so shuffle would evict every such pod).
 */
public final class PdbPlugin implements Plugin {

  /** The registration name. */
  public static final String NAME = "pdb";

  private static final int[] NONE = new int[0];

  /** The budgets that can match anything, in cluster order. */
  private final List<PodDisruptionBudget> budgets = new ArrayList<>();

  /** namespace → indices into {@link #budgets}. */
  private final Map<String, int[]> byNamespace = new HashMap<>();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session session, Extensions extensions) {
    Map<String, List<Integer>> indices = new HashMap<>();
    for (PodDisruptionBudget pdb : session.cluster().podDisruptionBudgets()) {
      if (!selectsSomething(pdb.selector())) {
        continue;
      }
      indices
          .computeIfAbsent(pdb.metadata().namespace(), k -> new ArrayList<>())
          .add(budgets.size());
      budgets.add(pdb);
    }
    for (Map.Entry<String, List<Integer>> e : indices.entrySet()) {
      byNamespace.put(e.getKey(), e.getValue().stream().mapToInt(Integer::intValue).toArray());
    }
    extensions.add(ExtensionPoint.VICTIM_TASKS, this::filter);
    extensions.add(ExtensionPoint.RECLAIMABLE, (reclaimer, c) -> Victims.permit(filter(c)));
    extensions.add(ExtensionPoint.PREEMPTABLE, (preemptor, c) -> Victims.permit(filter(c)));
  }

  /** The candidates whose eviction, in order, leaves every matching budget at zero or above. */
  List<TaskInfo> filter(List<TaskInfo> candidates) {
    int[] allowed = new int[budgets.size()];
    for (int i = 0; i < allowed.length; i++) {
      allowed[i] = budgets.get(i).disruptionsAllowed();
    }
    List<TaskInfo> kept = new ArrayList<>(candidates.size());
    for (TaskInfo task : candidates) {
      Pod pod = task.pod();
      Map<String, String> labels = pod.metadata().labels();
      if (labels.isEmpty()) {
        continue;
      }
      boolean violated = false;
      for (int i : byNamespace.getOrDefault(pod.namespace(), NONE)) {
        PodDisruptionBudget pdb = budgets.get(i);
        if (!pdb.selector().matches(labels) || pdb.disruptedPods().contains(pod.name())) {
          continue;
        }
        allowed[i]--;
        if (allowed[i] < 0) {
          violated = true;
        }
      }
      if (!violated) {
        kept.add(task);
      }
    }
    return kept;
  }

  /**
   * Whether Kubernetes' {@code LabelSelectorAsSelector} turns the selector into one that can match:
   * a null or empty selector matches nothing here, and an invalid expression (In/NotIn without
   * values, Exists/DoesNotExist with values, an unknown operator) makes Volcano skip the budget.
   */
  static boolean selectsSomething(LabelSelector selector) {
    if (selector == null || selector.isEmpty()) {
      return false;
    }
    for (LabelSelectorRequirement r : selector.matchExpressions()) {
      boolean valid =
          switch (r.operator()) {
            case "In", "NotIn" -> !r.values().isEmpty();
            case "Exists", "DoesNotExist" -> r.values().isEmpty();
            default -> false;
          };
      if (!valid) {
        return false;
      }
    }
    return true;
  }
}
