package dev.caldera.framework.internal.actions;

import dev.caldera.api.action.Action;
import dev.caldera.api.action.ActionSession;
import dev.caldera.api.extension.Status;
import dev.caldera.api.extension.ValidationResult;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import org.osgi.service.component.annotations.Component;

/**
 * Volcano's {@code backfill}: places best-effort tasks (requesting nothing but a pod slot) on the
 * best-scoring node that passes the predicates, with no resource check, directly in the session
 * ({@code ssn.Allocate}), which binds the job's allocated tasks once the job is ready.
 */
@Component(service = Action.class)
public final class BackfillAction implements Action {

  public static final String NAME = "backfill";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void execute(ActionSession session) {
    boolean cache =
        ActionArguments.of(session, NAME).getBoolean(ActionArguments.PREDICATE_ERROR_CACHE, true);
    NodeSet nodes = NodeSet.of(session);
    PredicateHelper.NodeCheck predicate = session::predicate;
    for (TaskInfo task : pendingTasks(session)) {
      Status pre = session.prePredicate(task);
      if (!pre.isSuccess()) {
        session.recordTaskError(task, pre);
        continue;
      }
      // Volcano makes one helper per task, so the error cache never hits here.
      PredicateHelper.Filtered filtered =
          new PredicateHelper(nodes, cache).filterAll(task, predicate);
      List<NodeInfo> feasible = filtered.feasible();
      if (feasible.isEmpty()) {
        filtered.recordFailures(session, task);
        continue;
      }
      NodeInfo node = NodeScores.bestNode(session, task, feasible);
      if (node == null) {
        continue;
      }
      Status allocated = session.allocate(task, node);
      if (!allocated.isSuccess()) {
        session.recordFitError(task, node.name(), allocated);
      }
    }
  }

  /**
   * {@code pickUpPendingTasks}: the best-effort Pending (and un-pipelined Pipelined) tasks of
   * non-pending, valid jobs, in queue, job and task order.
   */
  private static List<TaskInfo> pendingTasks(ActionSession session) {
    PriorityQueue<QueueInfo> queues = new PriorityQueue<>(session::compareQueues);
    Map<String, PriorityQueue<JobInfo>> jobsByQueue = new HashMap<>();
    Map<String, PriorityQueue<TaskInfo>> tasksByJob = new HashMap<>();
    for (JobInfo job : session.jobs()) {
      if (job.isPending()) {
        continue;
      }
      ValidationResult valid = session.jobValid(job);
      if (valid != null && !valid.pass()) {
        continue;
      }
      QueueInfo queue = session.queue(job.queue());
      if (queue == null) {
        continue;
      }
      if (job.pendingBestEffortTaskNum() == 0 && job.taskCount(TaskStatus.PIPELINED) == 0) {
        continue; // no best-effort task to place: its tasks need not be walked
      }
      List<TaskInfo> pending = new ArrayList<>();
      List<TaskInfo> pipelined = new ArrayList<>();
      for (TaskInfo t : job.tasks()) {
        if (!t.bestEffort()) {
          continue;
        }
        if (t.status() == TaskStatus.PENDING && !t.schedulingGated()) {
          pending.add(t);
        } else if (t.status() == TaskStatus.PIPELINED) {
          pipelined.add(t);
        }
      }
      for (TaskInfo t : pipelined) {
        session.unpipeline(t);
        pending.add(t);
      }
      if (pending.isEmpty()) {
        continue;
      }
      PriorityQueue<TaskInfo> tasks = new PriorityQueue<>(session::compareTasks);
      tasks.addAll(pending);
      tasksByJob.put(job.uid(), tasks);
      jobsByQueue
          .computeIfAbsent(
              queue.name(),
              q -> {
                queues.add(queue);
                return new PriorityQueue<>(session::compareJobs);
              })
          .add(job);
    }

    List<TaskInfo> ordered = new ArrayList<>();
    while (!queues.isEmpty()) {
      PriorityQueue<JobInfo> jobs = jobsByQueue.get(queues.poll().name());
      while (!jobs.isEmpty()) {
        PriorityQueue<TaskInfo> tasks = tasksByJob.get(jobs.poll().uid());
        while (!tasks.isEmpty()) {
          ordered.add(tasks.poll());
        }
      }
    }
    return ordered;
  }
}
