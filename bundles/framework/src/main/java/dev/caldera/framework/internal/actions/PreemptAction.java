package dev.caldera.framework.internal.actions;

import dev.caldera.api.action.Action;
import dev.caldera.api.action.ActionSession;
import dev.caldera.api.action.Statement;
import dev.caldera.api.extension.Status;
import dev.caldera.api.extension.ValidationResult;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodCondition;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.support.resource.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Predicate;
import org.osgi.service.component.annotations.Component;

/**
 * Volcano's {@code preempt}, inside each queue: first starving jobs take resources from other jobs
 * of the same queue (committed only if the job becomes pipelined), then tasks of a starving job
 * take them from its own lower tasks. The preemptor is always pipelined, never allocated.
 */
@Component(service = Action.class)
public final class PreemptAction implements Action {

  public static final String NAME = "preempt";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void execute(ActionSession session) {
    new Run(session, PreemptOptions.of(session)).run();
  }

  private static final class Run {

    private final ActionSession session;
    private final PreemptOptions options;
    private final NodeSet nodes;
    private final PredicateHelper helper;
    private final PredicateHelper.NodeCheck preemptPredicate;

    Run(ActionSession session, PreemptOptions options) {
      this.session = session;
      this.options = options;
      this.nodes = NodeSet.of(session);
      this.helper = new PredicateHelper(nodes, options.predicateErrorCache());
      this.preemptPredicate = Preemption.predicate(session);
    }

    void run() {
      Map<String, PriorityQueue<JobInfo>> preemptorsByQueue = new LinkedHashMap<>();
      Map<String, List<JobInfo>> underRequest = new HashMap<>();
      Map<String, PriorityQueue<TaskInfo>> tasksByJob = new HashMap<>();
      for (JobInfo job : session.jobs()) {
        if (job.isPending()) {
          continue;
        }
        ValidationResult valid = session.jobValid(job);
        if (valid != null && !valid.pass()) {
          continue;
        }
        if (session.queue(job.queue()) == null || !session.jobStarving(job)) {
          continue;
        }
        preemptorsByQueue
            .computeIfAbsent(job.queue(), q -> new PriorityQueue<>(session::compareJobs))
            .add(job);
        underRequest.computeIfAbsent(job.queue(), q -> new ArrayList<>()).add(job);
        tasksByJob.put(job.uid(), Preemption.pendingTasks(session, job));
      }
      PriorityQueue<QueueInfo> queues = new PriorityQueue<>(session::compareQueues);
      for (String name : preemptorsByQueue.keySet()) {
        queues.add(session.queue(name));
      }

      while (!queues.isEmpty()) {
        QueueInfo queue = queues.poll();
        betweenJobs(preemptorsByQueue.get(queue.name()), tasksByJob);
        for (JobInfo job : underRequest.get(queue.name())) {
          withinJob(job);
        }
      }
    }

    /** Phase A: starving jobs evict tasks of other jobs of their queue. */
    private void betweenJobs(
        PriorityQueue<JobInfo> preemptors, Map<String, PriorityQueue<TaskInfo>> tasksByJob) {
      while (!preemptors.isEmpty()) {
        JobInfo job = preemptors.poll();
        PriorityQueue<TaskInfo> tasks = tasksByJob.get(job.uid());
        Statement stmt = session.newStatement();
        while (session.jobStarving(job) && !tasks.isEmpty()) {
          TaskInfo preemptor = tasks.poll();
          preempt(stmt, preemptor, otherJobsOfQueue(preemptor, job));
        }
        if (session.jobPipelined(job)) {
          stmt.commit();
        } else {
          stmt.discard();
        }
      }
    }

    /** Phase B: each pending task of the job evicts lower tasks of the same job. */
    private void withinJob(JobInfo job) {
      PriorityQueue<TaskInfo> tasks = Preemption.pendingTasks(session, job);
      while (!tasks.isEmpty()) {
        TaskInfo preemptor = tasks.poll();
        Statement stmt = session.newStatement();
        if (!preempt(stmt, preemptor, sameJob(preemptor))) {
          stmt.discard();
          return;
        }
        stmt.commit();
      }
    }

    private Predicate<TaskInfo> otherJobsOfQueue(TaskInfo preemptor, JobInfo preemptorJob) {
      return t -> {
        if (!evictable(preemptor, t)) {
          return false;
        }
        JobInfo owner = session.job(t.jobId());
        return owner != null
            && owner.queue().equals(preemptorJob.queue())
            && !t.jobId().equals(preemptor.jobId());
      };
    }

    private static Predicate<TaskInfo> sameJob(TaskInfo preemptor) {
      return t -> evictable(preemptor, t) && t.jobId().equals(preemptor.jobId());
    }

    /** Bound or Running, preemptable, and not a non-best-effort task for a best-effort one. */
    private static boolean evictable(TaskInfo preemptor, TaskInfo t) {
      return t.status().isPreemptable()
          && !(preemptor.bestEffort() && !t.bestEffort())
          && t.preemptable();
    }

    /** Tries to make room for the preemptor on one node; true when it was pipelined. */
    private boolean preempt(Statement stmt, TaskInfo preemptor, Predicate<TaskInfo> filter) {
      if (!eligible(preemptor) || !session.prePredicate(preemptor).isSuccess()) {
        return false;
      }
      int[] candidates = nodes.withoutUnresolvable(session, preemptor);
      List<NodeInfo> feasible =
          helper.filter(preemptor, candidates, candidates.length, preemptPredicate).feasible();
      JobInfo job = session.job(preemptor.jobId());
      if (job == null || feasible.isEmpty()) {
        return false;
      }
      QueueInfo queue = session.queue(job.queue());
      if (options.topologyAware()) {
        return new TopologyAwarePreemption(session, options, NAME)
            .preempt(stmt, preemptor, queue, feasible, filter);
      }
      return normalPreempt(stmt, preemptor, queue, feasible, filter);
    }

    /**
     * On the nodes by descending score: evict the node's victims, lowest first, until the preemptor
     * fits (queue allocatable, future idle, predicates), then pipeline it there.
     */
    private boolean normalPreempt(
        Statement stmt,
        TaskInfo preemptor,
        QueueInfo queue,
        List<NodeInfo> feasible,
        Predicate<TaskInfo> filter) {
      List<NodeInfo> ordered =
          feasible.size() == 1
              ? feasible
              : NodeScores.sortedByScore(feasible, session.scoreNodes(preemptor, feasible));
      ResourceView request = preemptor.initResreq();
      for (NodeInfo node : ordered) {
        List<TaskInfo> victims = session.preemptable(preemptor, preemptees(node, filter));
        if (!NodeFit.fitsFutureIdle(request, node, Preemption.sumOfRequests(victims))) {
          continue;
        }
        Statement nodeStmt = session.newStatement();
        List<TaskInfo> order = session.victimOrder(victims, preemptor);
        Resource evicted = Resource.empty();
        boolean fits = fits(queue, preemptor, node);
        for (int i = 0; i < order.size() && !fits; i++) {
          TaskInfo victim = order.get(i);
          session.recordEvictionFor(victim, preemptor);
          nodeStmt.evict(victim, NAME);
          evicted.add(victim.resreq());
          fits = fits(queue, preemptor, node);
        }
        if (fits && nodeStmt.pipeline(preemptor, node, !evicted.isEmpty()).isSuccess()) {
          stmt.merge(nodeStmt);
          return true;
        }
        nodeStmt.discard();
      }
      return false;
    }

    /** {@code preemptorFitsOnNode}: queue allocatable, future idle holds it, predicates pass. */
    private boolean fits(QueueInfo queue, TaskInfo preemptor, NodeInfo node) {
      return session.allocatable(queue, preemptor)
          && NodeFit.fitsFutureIdle(preemptor.initResreq(), node)
          && session.predicate(preemptor, node).isSuccess();
    }

    /** The node's tasks that pass the filter, in the node's order. */
    private static List<TaskInfo> preemptees(NodeInfo node, Predicate<TaskInfo> filter) {
      List<TaskInfo> out = new ArrayList<>();
      for (TaskInfo t : node.tasks()) {
        if (filter.test(t)) {
          out.add(t);
        }
      }
      return out;
    }

    /**
     * {@code taskEligibleToPreempt}: not with preemption policy Never; with a nominated node, only
     * if that node exists, still fails the predicates, and holds no lower-priority pod that is
     * already terminating because of a preemption (unless the failure is unresolvable).
     */
    private boolean eligible(TaskInfo preemptor) {
      if (Preemption.neverPreempts(preemptor)) {
        return false;
      }
      String nominated = preemptor.pod().nominatedNodeName();
      if (nominated.isEmpty()) {
        return true;
      }
      NodeInfo node = session.node(nominated);
      if (node == null) {
        return false;
      }
      Status status = session.predicate(preemptor, node);
      if (status.isSuccess() || status.code() == Status.Code.ERROR) {
        return false;
      }
      if (status.code() == Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
        return true;
      }
      int priority = Preemption.podPriority(preemptor.pod());
      for (TaskInfo t : node.tasks()) {
        if (Preemption.podPriority(t.pod()) < priority && terminatingByPreemption(t.pod())) {
          return false;
        }
      }
      return true;
    }

    private static boolean terminatingByPreemption(Pod pod) {
      if (pod.metadata().deletionTimestamp() == null) {
        return false;
      }
      for (PodCondition c : pod.conditions()) {
        if ("DisruptionTarget".equals(c.type())) {
          return "True".equals(c.status()) && "PreemptionByScheduler".equals(c.reason());
        }
      }
      return false;
    }
  }
}
