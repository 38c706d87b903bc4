package dev.caldera.framework.internal.actions;

import dev.caldera.api.action.ActionSession;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.Pod;
import dev.caldera.support.resource.Resource;
import java.util.List;
import java.util.PriorityQueue;

/** What preempt and reclaim share. */
final class Preemption {

  private Preemption() {}

  /**
   * {@code PredicateForPreemptAction}: a node is kept unless the predicates fail in a way eviction
   * cannot fix (UnschedulableAndUnresolvable, Error, Wait, Skip); resources are not checked.
   */
  static PredicateHelper.NodeCheck predicate(ActionSession session) {
    return (task, node) -> {
      Status s = session.predicate(task, node);
      return s.resolvableByPreemption() ? Status.OK : s;
    };
  }

  /** The job's Pending tasks that are not scheduling-gated, in task order. */
  static PriorityQueue<TaskInfo> pendingTasks(ActionSession session, JobInfo job) {
    PriorityQueue<TaskInfo> tasks = new PriorityQueue<>(session::compareTasks);
    for (TaskInfo t : job.tasks()) {
      if (t.status() == TaskStatus.PENDING && !t.schedulingGated()) {
        tasks.add(t);
      }
    }
    return tasks;
  }

  /** {@code spec.preemptionPolicy: Never}. */
  static boolean neverPreempts(TaskInfo task) {
    return "Never".equals(task.pod().preemptionPolicy());
  }

  /** Σ requests of the tasks. */
  static Resource sumOfRequests(List<TaskInfo> tasks) {
    Resource sum = Resource.empty();
    for (TaskInfo t : tasks) {
      sum.add(t.resreq());
    }
    return sum;
  }

  /** {@code PodPriority}: {@code spec.priority}, 0 when unset. */
  static int podPriority(Pod pod) {
    return pod.priority() == null ? 0 : pod.priority();
  }
}
