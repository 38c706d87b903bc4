package dev.caldera.plugins.capacity;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.Session;
import dev.caldera.api.extension.CycleState;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.Status;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.PodCondition;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.support.resource.Resource;

/**
 * Volcano's {@code capacity} plugin: each queue may hold up to its real capability (its capability
 * within what the other queues' guarantees leave), admits jobs within it, orders queues by how much
 * of their deserved share they use, and lets queues below deserved reclaim from queues above it,
 * never below a guarantee. With {@code enableHierarchy} the queues form a tree whose every level
 * limits the leaves below it.
 *
 * <p>Beyond Volcano, in a hierarchy: a queue without {@code spec.deserved} gets its parent's split
 * by weight; the tree may be declared with {@code volcano.sh/hierarchy} annotations; a broken part
 * of the tree or a job outside a leaf queue is refused on its own, with an event and a pod group
 * condition, without stopping everyone else; ancestors' shares follow allocations in the session;
 * inconsistencies are reported as queue warnings once per change.
 */
public final class CapacityPlugin implements Plugin {

  /** The registration name. */
  public static final String NAME = "capacity";

  /** The pod group condition set on a job whose queue cannot take jobs. */
  static final String CONDITION_TYPE = "QueueValid";

  private final CapacityArguments arguments;
  private final QueueReports reports;
  private Session session;
  private QueueTable table;
  private Limits limits;

  /** A plugin that remembers its own queue warnings (tests); the factory shares one memory. */
  CapacityPlugin(CapacityArguments arguments) {
    this(arguments, new QueueReports());
  }

  CapacityPlugin(CapacityArguments arguments, QueueReports reports) {
    this.arguments = arguments;
    this.reports = reports;
  }

  @Override
  public String name() {
    return NAME;
  }

  /** The arguments this instance was made with. */
  CapacityArguments arguments() {
    return arguments;
  }

  @Override
  public void onSessionOpen(Session session, Extensions extensions) {
    this.session = session;
    this.limits = new Limits(session);
    this.table = arguments.hierarchy() ? hierarchical(session) : FlatQueues.build(session);
    for (QueueReports.Report r : reports.changed(table.reports())) {
      session.recordEvent("Queue", r.queue(), "Warning", r.reason(), r.message());
    }
    refuseJobsOutsideLeaves();

    Reclaim reclaim = new Reclaim(session, table, arguments.ancestorReclaimLevel());
    QueueOrders orders = new QueueOrders(table);
    extensions.add(ExtensionPoint.RECLAIMABLE, reclaim::reclaimable);
    extensions.add(ExtensionPoint.PREEMPTIVE, reclaim::preemptive);
    extensions.add(ExtensionPoint.ALLOCATABLE, this::allocatable);
    extensions.add(ExtensionPoint.JOB_ENQUEUEABLE, this::enqueueable);
    extensions.add(ExtensionPoint.JOB_ENQUEUED, this::enqueued);
    extensions.add(ExtensionPoint.PRE_PREDICATE, this::prePredicate);
    extensions.add(ExtensionPoint.SIMULATE_ADD_TASK, (s, t, add, n) -> simulate(s, add, true));
    extensions.add(ExtensionPoint.SIMULATE_REMOVE_TASK, (s, t, rm, n) -> simulate(s, rm, false));
    extensions.add(ExtensionPoint.SIMULATE_ALLOCATABLE, this::simulateAllocatable);
    extensions.add(
        ExtensionPoint.EVENT_HANDLER,
        new EventHandler() {
          @Override
          public Status allocated(TaskInfo task) {
            change(task, true);
            return Status.OK;
          }

          @Override
          public void deallocated(TaskInfo task) {
            change(task, false);
          }
        });
    extensions.add(ExtensionPoint.QUEUE_ORDER, orders::compare);
    if (table.hierarchy()) {
      extensions.add(ExtensionPoint.VICTIM_QUEUE_ORDER, orders::compareVictims);
    }
  }

  /** The attribute of a queue (implicit queues included), or null. For tests. */
  QueueAttr attr(String queue) {
    return table.get(queue);
  }

  private static QueueTable hierarchical(Session session) {
    QueueTable table = QueueTree.build(session);
    for (JobInfo job : session.jobs()) {
      QueueAttr attr = table.get(job.queue());
      if (attr == null) {
        continue;
      }
      JobUsage usage = JobUsage.of(job);
      usage.addTo(attr);
      for (QueueAttr ancestor : attr.ancestors) {
        usage.addTo(ancestor);
      }
    }
    TreeLimits.apply(table, session.totalResource(), table.reports());
    return table;
  }

  /**
   * A job waiting in a queue that cannot take jobs gets an event and a condition saying why; the
   * functions below refuse it, and only it.
   */
  private void refuseJobsOutsideLeaves() {
    if (!table.hierarchy()) {
      return;
    }
    for (JobInfo job : session.jobs()) {
      QueueAttr attr = table.get(job.queue());
      if (attr == null || attr.refusalReason == null || !waiting(job)) {
        continue;
      }
      String message = "pod group " + job.uid() + " cannot be scheduled: " + attr.refusalMessage;
      session.recordEvent("PodGroup", job.uid(), "Warning", attr.refusalReason, message);
      session.setPodGroupCondition(
          job, new PodCondition(CONDITION_TYPE, "False", attr.refusalReason, message));
    }
  }

  private static boolean waiting(JobInfo job) {
    if (job.isPending()) {
      return true;
    }
    for (TaskInfo t : job.tasks()) {
      if (t.status() == TaskStatus.PENDING) {
        return true;
      }
    }
    return false;
  }

  /**
   * AllocatableFn: an Open queue that takes jobs, with the task within the real capability of the
   * queue and of every ancestor; a refusal is explained on the pod.
   */
  private boolean allocatable(QueueInfo queue, TaskInfo task) {
    if (!queue.isOpen()) {
      return false;
    }
    QueueAttr attr = table.get(queue.name());
    if (attr == null || attr.refusalReason != null) {
      return false;
    }
    QueueAttr exceeded = Limits.firstExceeded(attr, null, task);
    if (exceeded != null) {
      limits.refuseTask(task, attr, exceeded);
      return false;
    }
    return true;
  }

  /** JobEnqueueableFn: the job's minimum within real capability at every level. */
  private Vote enqueueable(JobInfo job) {
    QueueAttr attr = table.get(job.queue());
    if (attr != null && attr.refusalReason != null) {
      return Vote.REJECT;
    }
    QueueInfo queue = session.queue(job.queue());
    if (queue == null || !queue.isOpen()) {
      return Vote.REJECT;
    }
    if (attr == null || job.minResources() == null) {
      return Vote.PERMIT;
    }
    return limits.enqueueable(job, attr) ? Vote.PERMIT : Vote.REJECT;
  }

  /** JobEnqueuedFn: the admitted minimum counts as inqueue at every level. */
  private void enqueued(JobInfo job) {
    QueueAttr attr = table.get(job.queue());
    if (attr == null || job.minResources() == null) {
      return;
    }
    ResourceView minimum = job.deductSchedulingGated(Resource.copyOf(job.minResources()));
    for (QueueAttr level = attr; level != null; level = level.parent) {
      level.inqueue.add(minimum);
    }
  }

  private Status prePredicate(TaskInfo task) {
    session.cycleState(task).write(CapacityState.KEY, CapacityState.of(table));
    return Status.OK;
  }

  private boolean simulateAllocatable(CycleState state, QueueInfo queue, TaskInfo task) {
    if (!(state.read(CapacityState.KEY) instanceof CapacityState s)) {
      return false;
    }
    QueueAttr attr = table.get(queue.name());
    return attr != null
        && attr.refusalReason == null
        && Limits.firstExceeded(attr, s.allocated, task) == null;
  }

  private Status simulate(CycleState state, TaskInfo task, boolean add) {
    if (!(state.read(CapacityState.KEY) instanceof CapacityState s)) {
      return Status.error("capacity: no cycle state for " + task.key());
    }
    JobInfo job = session.job(task.jobId());
    if (job == null) {
      return Status.error("capacity: job " + task.jobId() + " not found in session");
    }
    QueueAttr attr = table.get(job.queue());
    if (attr == null) {
      return Status.error("capacity: queue " + job.queue() + " not found");
    }
    for (QueueAttr level = attr; level != null; level = level.parent) {
      if (add) {
        s.allocated[level.index].add(task.resreq());
      } else {
        s.allocated[level.index].sub(task.resreq());
      }
    }
    return Status.OK;
  }

  /** The allocate/deallocate event: the task's request on its queue and every ancestor. */
  private void change(TaskInfo task, boolean add) {
    JobInfo job = session.job(task.jobId());
    QueueAttr attr = job == null ? null : table.get(job.queue());
    for (QueueAttr level = attr; level != null; level = level.parent) {
      if (add) {
        level.allocated.add(task.resreq());
      } else {
        level.allocated.sub(task.resreq());
      }
      level.updateShare();
    }
  }
}
