package dev.caldera.framework.internal.session;

import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodDisruptionBudget;
import dev.caldera.framework.loop.QueueLifecycle;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What Volcano's queue controller does to queue states, done in the session where no such
 * controller runs: a Closing queue of which nothing runs any more becomes Closed; and the drain an
 * operator asked for, evicting what runs of a queue that is not Open.
 */
final class QueueLifecycleStep {

  /** The eviction reason (and the action named in the report) of a drain. */
  static final String DRAIN = "drain";

  /** The event reason on a queue whose drain waits for a PodDisruptionBudget. */
  static final String DRAIN_BLOCKED = "DrainBlocked";

  /** The event reason on a queue that the session moved from Closing to Closed. */
  static final String CLOSED = "Closed";

  private QueueLifecycleStep() {}

  /**
   * Evicts every Running or Bound task of the draining queues (annotation {@value
   * QueueLifecycle#DRAIN_ANNOTATION} {@code "true"}, state not Open), in job then task key order,
   * as the Eviction API would allow: a pod that a PodDisruptionBudget of its namespace selects is
   * left running once the budget's {@code disruptionsAllowed} is spent, and the queue gets one
   * event naming the pods held and the budget. A job at its eviction budget (the conf's {@code
   * evictionBudget} or its {@code caldera.dev/eviction-budget}) loses no more pods than the budget
   * has left, as with preempt and reclaim, and the queue gets one event naming the job, its budget
   * and the pods held. Later sessions go on as budgets allow.
   */
  static void drain(SessionImpl session) {
    List<QueueState> draining = new ArrayList<>();
    for (QueueState q : session.queueMap().values()) {
      if (!q.isOpen()
          && "true"
              .equals(q.queue().metadata().annotations().get(QueueLifecycle.DRAIN_ANNOTATION))) {
        draining.add(q);
      }
    }
    if (draining.isEmpty()) {
      return;
    }
    draining.sort(Comparator.comparing(QueueState::name));
    List<PodDisruptionBudget> budgets = session.cluster().podDisruptionBudgets();
    Map<PodDisruptionBudget, Integer> allowed = new IdentityHashMap<>();
    for (PodDisruptionBudget b : budgets) {
      allowed.put(b, b.disruptionsAllowed());
    }
    EvictionGuard guard = session.evictionGuard();
    for (QueueState q : draining) {
      Map<String, List<String>> heldBy = new TreeMap<>();
      Map<String, List<String>> heldByBudget = new TreeMap<>();
      Map<String, JobState> budgetJobs = new TreeMap<>();
      for (JobState job :
          session.jobMap().values().stream()
              .filter(j -> j.queue().equals(q.name()))
              .sorted(Comparator.comparing(JobState::uid))
              .toList()) {
        EvictionGuard.BudgetUse use = guard == null ? null : guard.budgetUse(job);
        int left = use == null ? Integer.MAX_VALUE : use.left();
        for (TaskState t :
            job.taskStates().stream().sorted(Comparator.comparing(TaskState::key)).toList()) {
          if (t.status != TaskStatus.RUNNING && t.status != TaskStatus.BOUND) {
            continue;
          }
          if (left < 1) {
            heldByBudget.computeIfAbsent(job.uid(), k -> new ArrayList<>()).add(t.key());
            budgetJobs.put(job.uid(), job);
            continue;
          }
          List<PodDisruptionBudget> matching = matching(budgets, t.pod());
          PodDisruptionBudget spent =
              matching.stream().filter(b -> allowed.get(b) < 1).findFirst().orElse(null);
          if (spent != null) {
            heldBy.computeIfAbsent(spent.metadata().key(), k -> new ArrayList<>()).add(t.key());
            continue;
          }
          matching.forEach(b -> allowed.merge(b, -1, Integer::sum));
          session.evict(t, DRAIN);
          left--;
        }
      }
      heldBy.forEach(
          (pdb, pods) ->
              session.recordEvent(
                  "Queue",
                  q.name(),
                  "Warning",
                  DRAIN_BLOCKED,
                  "drain of queue "
                      + q.name()
                      + " waits for PodDisruptionBudget "
                      + pdb
                      + " (no disruption allowed now): "
                      + String.join(", ", pods)
                      + (pods.size() == 1 ? " keeps" : " keep")
                      + " running"));
      heldByBudget.forEach(
          (uid, pods) ->
              session.recordEvent(
                  "Queue",
                  q.name(),
                  "Warning",
                  DRAIN_BLOCKED,
                  "drain of queue "
                      + q.name()
                      + " waits for the eviction budget of job "
                      + uid
                      + " (it has had "
                      + guard.budgetUse(budgetJobs.get(uid)).spent()
                      + "): "
                      + String.join(", ", pods)
                      + (pods.size() == 1 ? " keeps" : " keep")
                      + " running"));
    }
  }

  /** The budgets of the pod's namespace whose selector matches its labels, as the Eviction API. */
  private static List<PodDisruptionBudget> matching(List<PodDisruptionBudget> budgets, Pod pod) {
    List<PodDisruptionBudget> out = new ArrayList<>();
    for (PodDisruptionBudget b : budgets) {
      if (b.metadata().namespace().equals(pod.namespace())
          && b.selector() != null
          && !b.selector().isEmpty()
          && b.selector().matches(pod.metadata().labels())
          && !b.disruptedPods().contains(pod.name())) {
        out.add(b);
      }
    }
    return out;
  }

  /**
   * The queues whose state the session moves: each Closing queue none of whose tasks is placed,
   * bound, running or being released (its pending pod groups do not hold it) becomes Closed, as
   * Volcano's controller closes a queue once it holds nothing. In name order.
   */
  static Map<String, String> transitions(SessionImpl session) {
    Map<String, String> out = new TreeMap<>();
    for (QueueState q : session.queueMap().values()) {
      if (!"Closing".equals(q.queue().state())) {
        continue;
      }
      boolean runs = false;
      for (JobState job : session.jobMap().values()) {
        if (!job.queue().equals(q.name())) {
          continue;
        }
        for (TaskState t : job.taskStates()) {
          if (t.status.isAllocated()
              || t.status == TaskStatus.PIPELINED
              || t.status == TaskStatus.RELEASING) {
            runs = true;
            break;
          }
        }
        if (runs) {
          break;
        }
      }
      if (!runs) {
        out.put(q.name(), "Closed");
      }
    }
    return out;
  }
}
