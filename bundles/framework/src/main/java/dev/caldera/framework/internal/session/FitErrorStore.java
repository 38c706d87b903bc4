package dev.caldera.framework.internal.session;

import dev.caldera.api.extension.Status;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * The fit errors of one session: per task, the status each node answered (in the order recorded),
 * and the explicit messages. Actions record them, possibly from several threads; {@link FitErrors}
 * makes the messages of them.
 */
final class FitErrorStore {

  private final Map<String, Map<String, Status>> byTask = new HashMap<>();
  private final Map<String, String> taskMessages = new HashMap<>();

  synchronized void record(TaskInfo task, String nodeName, Status status) {
    byTask.computeIfAbsent(task.uid(), k -> new LinkedHashMap<>()).put(nodeName, status);
  }

  /** A status that holds on every one of {@code nodes}. */
  synchronized void recordTaskError(TaskInfo task, Status status, List<NodeInfo> nodes) {
    Map<String, Status> perNode = byTask.computeIfAbsent(task.uid(), k -> new LinkedHashMap<>());
    for (NodeInfo n : nodes) {
      perNode.put(n.name(), status);
    }
  }

  synchronized void recordMessage(TaskInfo task, String message) {
    taskMessages.put(task.uid(), message);
  }

  /** The explicit fit-error message of a task, or null. */
  synchronized String message(TaskInfo task) {
    return taskMessages.get(task.uid());
  }

  synchronized boolean has(TaskInfo task) {
    Map<String, Status> m = byTask.get(task.uid());
    return (m != null && !m.isEmpty()) || taskMessages.containsKey(task.uid());
  }

  synchronized boolean unresolvableOn(TaskInfo task, String nodeName) {
    Map<String, Status> m = byTask.get(task.uid());
    if (m == null) {
      return false;
    }
    Status s = m.get(nodeName);
    return s != null && s.code() == Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE;
  }

  /** The task's status per node, in the order recorded (a copy). */
  synchronized Map<String, Status> of(TaskInfo task) {
    Map<String, Status> m = byTask.get(task.uid());
    return m == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(m));
  }

  /**
   * Gives each node of the fit errors the reason kube-scheduler would give; called once the actions
   * ran, while the plugins are still open. Allocate checks resources before the plugins' predicates
   * (as Volcano does), but kube-scheduler runs its node filters (unschedulable, node affinity and
   * selector, taints) before resource fit. So a node reported short of a resource that a predicate
   * excludes for good (a status preemption cannot resolve) is reported with that reason: a 100m pod
   * with a node selector reads "2 Insufficient cpu, 6 node(s) didn't match Pod's node
   * affinity/selector" when 2 of its 8 nodes match and are full, whatever the other 6 hold.
   *
   * @param tasks the session's tasks by UID
   * @param nodes the session's nodes by name
   * @param predicate the session's predicates
   */
  synchronized void inKubeSchedulerOrder(
      Map<String, ? extends TaskInfo> tasks,
      Map<String, ? extends NodeInfo> nodes,
      BiFunction<TaskInfo, NodeInfo, Status> predicate) {
    byTask.forEach(
        (uid, byNode) -> {
          TaskInfo task = tasks.get(uid);
          if (task == null || !anyUnresolvable(byNode)) {
            return;
          }
          for (Map.Entry<String, Status> e : byNode.entrySet()) {
            NodeInfo node = nodes.get(e.getKey());
            if (node != null && insufficientOnly(e.getValue())) {
              Status predicates = predicate.apply(task, node);
              if (predicates.code() == Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
                e.setValue(predicates);
              }
            }
          }
        });
  }

  /**
   * The tasks {@link #inKubeSchedulerOrder} would look at: those some node excludes for good. Only
   * such a task can have full nodes that would exclude it too, so a session whose fit errors are
   * all about resources (or that has none, as most sessions under a steady stream) looks up no task
   * (allocate never ran the predicates on full nodes, and they are not run now).
   */
  synchronized Set<String> tasksWithUnresolvableErrors() {
    Set<String> uids = new HashSet<>();
    byTask.forEach(
        (uid, byNode) -> {
          if (anyUnresolvable(byNode)) {
            uids.add(uid);
          }
        });
    return uids;
  }

  private static boolean anyUnresolvable(Map<String, Status> byNode) {
    for (Status s : byNode.values()) {
      if (s.code() == Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
        return true;
      }
    }
    return false;
  }

  private static boolean insufficientOnly(Status s) {
    if (s.reasons().isEmpty() || s.code() != Status.Code.UNSCHEDULABLE) {
      return false;
    }
    for (String reason : s.reasons()) {
      if (!reason.startsWith("Insufficient ")) {
        return false;
      }
    }
    return true;
  }
}
