package dev.caldera.framework.internal.session;

import static dev.caldera.framework.ExtensionTable.Combination.INTERSECT;
import static dev.caldera.framework.ExtensionTable.Combination.UNION;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.extension.PreemptableFn;
import dev.caldera.api.extension.ReclaimableFn;
import dev.caldera.api.extension.VictimTasksFn;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.TaskInfo;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which running tasks may be evicted: the plugins' victim functions combined as Volcano does, then
 * the eviction guard's budgets; the functions that decided each victim are kept to name the
 * eviction's rule.
 */
final class VictimSelection {

  private final Tiers<PreemptableFn> preemptable;
  private final Tiers<ReclaimableFn> reclaimable;
  private final List<List<VictimTasksFn>> victimTasks;
  private final EvictionGuard guard;
  private final EvictionDeciders deciders = new EvictionDeciders();

  /**
   * @param guard the session's eviction guard (null: none)
   */
  VictimSelection(Registrations.Frozen f, EvictionGuard guard) {
    this.preemptable = f.get(ExtensionPoint.PREEMPTABLE, INTERSECT);
    this.reclaimable = f.get(ExtensionPoint.RECLAIMABLE, INTERSECT);
    this.victimTasks = f.get(ExtensionPoint.VICTIM_TASKS, UNION).fnTiers();
    this.guard = guard;
  }

  List<TaskInfo> preemptable(TaskInfo preemptor, List<TaskInfo> candidates) {
    List<TaskInfo> victims = select(preemptable, PreemptableFn::select, preemptor, candidates);
    return guard == null ? victims : guard.filter(preemptor, victims, false);
  }

  List<TaskInfo> reclaimable(TaskInfo reclaimer, List<TaskInfo> candidates) {
    List<TaskInfo> victims = select(reclaimable, ReclaimableFn::select, reclaimer, candidates);
    return guard == null ? victims : guard.filter(reclaimer, victims, true);
  }

  /** A victim function's answer. */
  private interface Selection<T> {
    Victims select(T fn, TaskInfo evictor, List<TaskInfo> candidates);
  }

  /**
   * Volcano's victim selection (§4.3): intersect inside a tier; the first non-empty tier decides.
   * The deciding tier's permitting functions are noted for the eviction's rule.
   */
  private <T> List<TaskInfo> select(
      Tiers<T> tiers, Selection<T> selection, TaskInfo evictor, List<TaskInfo> candidates) {
    for (List<Registered<T>> tier : tiers.tiers()) {
      List<TaskInfo> victims = null;
      List<Registered<?>> permitting = new ArrayList<>(tier.size());
      for (Registered<T> r : tier) {
        Victims answer = selection.select(r.fn(), evictor, candidates);
        if (answer == null || answer.vote() == Vote.ABSTAIN) {
          continue;
        }
        if (answer.tasks().isEmpty() || answer.vote() == Vote.REJECT) {
          victims = null;
          break;
        }
        permitting.add(r);
        if (victims == null) {
          victims = new ArrayList<>(answer.tasks());
        } else {
          Set<String> keep = new HashSet<>();
          answer.tasks().forEach(t -> keep.add(t.uid()));
          victims.removeIf(v -> !keep.contains(v.uid()));
          if (victims.isEmpty()) {
            victims = null;
          }
        }
      }
      if (victims != null) {
        deciders.selected(evictor, victims, permitting);
        return victims;
      }
    }
    return List.of();
  }

  List<TaskInfo> victimTasks(List<TaskInfo> tasks) {
    for (List<VictimTasksFn> tier : victimTasks) {
      Set<TaskInfo> union = new LinkedHashSet<>();
      for (VictimTasksFn fn : tier) {
        List<TaskInfo> v = fn.select(tasks);
        if (v != null) {
          union.addAll(v);
        }
      }
      if (!union.isEmpty()) {
        return new ArrayList<>(union);
      }
    }
    return List.of();
  }

  /** Why {@code victim} may be evicted for {@code evictor}. */
  EvictionDeciders.Decided decided(TaskInfo evictor, TaskInfo victim) {
    return deciders.decided(evictor, victim);
  }
}
