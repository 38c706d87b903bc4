package dev.caldera.framework.internal.actions;

import dev.caldera.api.action.Action;
import dev.caldera.api.action.ActionSession;
import dev.caldera.api.action.Statement;
import dev.caldera.api.extension.ValidationResult;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.resource.Dimension;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.support.resource.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import org.osgi.service.component.annotations.Component;

/**
 * Volcano's {@code reclaim}: starving jobs of queues that are not overused take resources back from
 * other, reclaimable queues. For each task, the first node (in predicate order, not scored) where
 * evicting the reclaimable victims, lowest first, frees enough room gets the task pipelined; a
 * job's evictions are committed only if the job becomes pipelined.
 */
@Component(service = Action.class)
public final class ReclaimAction implements Action {

  public static final String NAME = "reclaim";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void execute(ActionSession session) {
    boolean cache =
        ActionArguments.of(session, NAME).getBoolean(ActionArguments.PREDICATE_ERROR_CACHE, true);
    new Run(session, cache).run();
  }

  private static final class Run {

    private final ActionSession session;
    private final boolean cacheEnabled;
    private final NodeSet nodes;
    private final PredicateHelper.NodeCheck preemptPredicate;

    Run(ActionSession session, boolean cacheEnabled) {
      this.session = session;
      this.cacheEnabled = cacheEnabled;
      this.nodes = NodeSet.of(session);
      this.preemptPredicate = Preemption.predicate(session);
    }

    void run() {
      PriorityQueue<QueueInfo> queues = new PriorityQueue<>(session::compareQueues);
      Set<String> seenQueues = new LinkedHashSet<>();
      Map<String, PriorityQueue<JobInfo>> starvingByQueue = new HashMap<>();
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
        if (seenQueues.add(queue.name())) {
          queues.add(queue);
        }
        if (session.jobStarving(job)) {
          starvingByQueue
              .computeIfAbsent(queue.name(), q -> new PriorityQueue<>(session::compareJobs))
              .add(job);
          tasksByJob.put(job.uid(), Preemption.pendingTasks(session, job));
        }
      }

      while (!queues.isEmpty()) {
        QueueInfo queue = queues.poll();
        if (session.overused(queue)) {
          continue;
        }
        PriorityQueue<JobInfo> jobs = starvingByQueue.get(queue.name());
        while (jobs != null && !jobs.isEmpty()) {
          JobInfo job = jobs.poll();
          PriorityQueue<TaskInfo> tasks = tasksByJob.get(job.uid());
          Statement stmt = session.newStatement();
          while (session.jobStarving(job) && !tasks.isEmpty()) {
            TaskInfo task = tasks.poll();
            if (Preemption.neverPreempts(task)
                || !session.preemptive(queue, List.of(task))
                || !session.prePredicate(task).isSuccess()) {
              continue;
            }
            reclaimForTask(stmt, task, job);
          }
          if (session.jobPipelined(job)) {
            stmt.commit();
          } else {
            stmt.discard();
          }
          // Harmless: the loop above drains the queue's jobs anyway (Volcano does the same).
          if (!jobs.isEmpty()) {
            queues.add(queue);
          }
        }
      }
    }

    private void reclaimForTask(Statement stmt, TaskInfo task, JobInfo job) {
      // Volcano makes one predicate helper per task here.
      PredicateHelper helper = new PredicateHelper(nodes, cacheEnabled);
      int[] candidates = nodes.withoutUnresolvable(session, task);
      List<NodeInfo> feasible =
          helper.filter(task, candidates, candidates.length, preemptPredicate).feasible();
      ResourceView request = task.initResreq();
      for (NodeInfo node : feasible) {
        List<TaskInfo> reclaimees = reclaimees(node, job);
        if (reclaimees.isEmpty()) {
          continue;
        }
        List<TaskInfo> victims = session.reclaimable(task, reclaimees);
        if (!NodeFit.fitsFutureIdle(request, node, Preemption.sumOfRequests(victims))) {
          continue;
        }
        Resource available = Resource.copyOf(node.futureIdle());
        Statement nodeStmt = session.newStatement();
        boolean evicted = false;
        for (TaskInfo victim : session.victimOrder(victims, task)) {
          if (request.lessEqual(available, Dimension.ZERO)) {
            break;
          }
          session.recordEvictionFor(victim, task);
          nodeStmt.evict(victim, NAME);
          available.add(victim.resreq());
          evicted = true;
        }
        if (!request.lessEqual(available, Dimension.ZERO)
            || !nodeStmt.pipeline(task, node, evicted).isSuccess()) {
          nodeStmt.discard();
          continue;
        }
        stmt.merge(nodeStmt);
        return;
      }
    }

    /** Running, preemptable tasks on the node of other jobs' reclaimable queues. */
    private List<TaskInfo> reclaimees(NodeInfo node, JobInfo reclaimer) {
      List<TaskInfo> out = new ArrayList<>();
      for (TaskInfo t : node.tasks()) {
        if (t.status() != TaskStatus.RUNNING || !t.preemptable()) {
          continue;
        }
        JobInfo owner = session.job(t.jobId());
        if (owner == null || owner.queue().equals(reclaimer.queue())) {
          continue;
        }
        QueueInfo queue = session.queue(owner.queue());
        if (queue != null && queue.reclaimable()) {
          out.add(t);
        }
      }
      return out;
    }
  }
}
