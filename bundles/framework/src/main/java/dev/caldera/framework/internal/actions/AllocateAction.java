package dev.caldera.framework.internal.actions;

import dev.caldera.api.action.Action;
import dev.caldera.api.action.ActionSession;
import dev.caldera.api.action.Statement;
import dev.caldera.api.extension.Status;
import dev.caldera.api.extension.ValidationResult;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.resource.ResourceView;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import org.osgi.service.component.annotations.Component;

/**
 * Volcano's {@code allocate}: queues take turns in queue order, each turn gives the queue's first
 * job its tasks in task order until the job is ready (or one task if it already was); a ready job's
 * statement is committed, a merely pipelined one is left as it is, anything else is discarded.
 */
@Component(service = Action.class)
public final class AllocateAction implements Action {

  public static final String NAME = "allocate";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void execute(ActionSession session) {
    ActionArguments arguments = ActionArguments.of(session, NAME);
    boolean cache = arguments.getBoolean(ActionArguments.PREDICATE_ERROR_CACHE, true);
    new Run(session, cache, NodeScan.of(arguments)).run();
  }

  /** One execution's state. */
  private static final class Run {

    private final ActionSession session;
    private final boolean cacheEnabled;
    private final NodeSet nodes;
    private final FailedRoles failedRoles;
    private final NodeGradients gradients;
    private final int[] single = new int[1];
    private final NodeScan scan;
    private final NodeAnswerCache answers;

    Run(ActionSession session, boolean cacheEnabled, NodeScan scan) {
      this.session = session;
      this.cacheEnabled = cacheEnabled;
      this.nodes = NodeSet.of(session);
      this.scan = scan;
      this.answers = scan == NodeScan.FULL ? null : new NodeAnswerCache(session, nodes);
      this.gradients = new NodeGradients(session.nodes().size());
      this.failedRoles = new FailedRoles(session);
    }

    void run() {
      PriorityQueue<QueueInfo> queues = new PriorityQueue<>(session::compareQueues);
      Map<String, PriorityQueue<JobInfo>> jobsByQueue = new HashMap<>();
      Map<String, PriorityQueue<TaskInfo>> tasksByJob = new HashMap<>();
      boolean enqueueConfigured = session.actionConfigured(EnqueueAction.NAME);

      for (JobInfo job : session.jobs()) {
        if (job.isPending()) {
          if (enqueueConfigured) {
            continue;
          }
          session.setJobPhase(job, PodGroupPhase.Inqueue);
        }
        ValidationResult valid = session.jobValid(job);
        if (valid != null && !valid.pass()) {
          continue;
        }
        QueueInfo queue = session.queue(job.queue());
        if (queue == null) {
          continue;
        }
        if (job.taskCount(TaskStatus.PENDING) == 0) {
          continue; // most jobs of a busy cluster: their tasks need not be walked
        }
        PriorityQueue<TaskInfo> tasks = new PriorityQueue<>(session::compareTasks);
        for (TaskInfo t : job.tasks()) {
          if (t.status() == TaskStatus.PENDING && !t.schedulingGated() && !t.resreq().isEmpty()) {
            tasks.add(t);
          }
        }
        if (tasks.isEmpty()) {
          continue;
        }
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

      while (!queues.isEmpty()) {
        QueueInfo queue = queues.poll();
        if (session.overused(queue)) {
          continue;
        }
        PriorityQueue<JobInfo> jobs = jobsByQueue.get(queue.name());
        if (jobs == null || jobs.isEmpty()) {
          continue;
        }
        JobInfo job = jobs.poll();
        PriorityQueue<TaskInfo> tasks = tasksByJob.get(job.uid());
        Statement stmt = allocateTasks(job, queue, tasks);
        // A statement of a job that is only pipelined is neither committed nor discarded: its
        // tentative allocations keep holding resources for the rest of the session.
        if (stmt != null && session.jobReady(job)) {
          stmt.commit();
          if (!tasks.isEmpty()) {
            jobs.add(job);
          }
        }
        queues.add(queue);
      }
    }

    /**
     * {@code allocateResourcesForTasks}: the statement if the job is ready or pipelined, else null.
     */
    private Statement allocateTasks(JobInfo job, QueueInfo queue, PriorityQueue<TaskInfo> tasks) {
      Statement stmt = session.newStatement();
      PredicateHelper helper = new PredicateHelper(nodes, cacheEnabled);
      while (!tasks.isEmpty()) {
        TaskInfo task = tasks.poll();
        if (!session.allocatable(queue, task) || task.schedulingGated()) {
          continue;
        }
        if (failedRoles.roleFailed(job, task)) {
          session.recordTaskMessage(
              task,
              "Task "
                  + task.name()
                  + " with role spec "
                  + task.taskRole()
                  + " has already predicated failed, skip");
          continue;
        }
        Status pre = session.prePredicate(task);
        if (!pre.isSuccess()) {
          session.recordTaskError(task, pre);
          failedRoles.failed(job, task);
          if (failedRoles.needContinueAllocating(job)) {
            continue;
          }
          break;
        }
        NodeInfo reused =
            answers == null ? null : answers.choose(task, helper, scan == NodeScan.INCREMENTAL);
        NodeInfo best;
        if (reused != null && scan == NodeScan.INCREMENTAL) {
          best = reused;
        } else {
          PredicateHelper.Filtered feasible = feasibleNodes(helper, task);
          best = feasible == null ? null : gradients.choose(session, task, feasible);
          if (reused != null && reused != best) {
            throw new IllegalStateException(
                "allocate nodeScan=check: for task "
                    + task.namespace()
                    + "/"
                    + task.name()
                    + " the incremental path chose node "
                    + reused.name()
                    + ", the full scan "
                    + (best == null ? "no node" : "node " + best.name()));
          }
          if (feasible == null) {
            failedRoles.failed(job, task);
            if (failedRoles.needContinueAllocating(job)) {
              continue;
            }
            break;
          }
        }
        if (best == null) {
          continue;
        }
        ResourceView request = task.initResreq();
        if (NodeFit.fitsIdle(request, best)) {
          stmt.allocate(task, best);
        } else if (NodeFit.fitsFutureIdle(request, best)) {
          stmt.pipeline(task, best, false);
        }
        if (session.jobReady(job)) {
          break;
        }
      }
      if (session.jobReady(job) || session.jobPipelined(job)) {
        return stmt;
      }
      stmt.discard();
      return null;
    }

    /**
     * The feasible nodes, trying the pod's nominated node first; null (with the fit errors
     * recorded) when there is none.
     */
    private PredicateHelper.Filtered feasibleNodes(PredicateHelper helper, TaskInfo task) {
      AllocPredicate predicate = new AllocPredicate(session, task);
      String nominated = task.pod().nominatedNodeName();
      if (!nominated.isEmpty()) {
        int i = nodes.indexOf(nominated);
        if (i >= 0 && NodeFit.fitsFutureIdle(task.initResreq(), nodes.get(i))) {
          single[0] = i;
          PredicateHelper.Filtered filtered = helper.filter(task, single, 1, predicate);
          if (filtered.anyFeasible()) {
            return filtered;
          }
        }
      }
      PredicateHelper.Filtered filtered = helper.filterAll(task, predicate);
      if (!filtered.anyFeasible()) {
        filtered.recordFailures(session, task);
        return null;
      }
      return filtered;
    }
  }
}
