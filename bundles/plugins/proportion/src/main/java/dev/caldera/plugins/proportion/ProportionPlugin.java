package dev.caldera.plugins.proportion;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.Session;
import dev.caldera.api.extension.CycleState;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.Status;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.Blocker;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.resource.Dimension;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.support.resource.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Volcano's {@code proportion} plugin: divides the cluster among queues with jobs by weight (within
 * capability, request and guarantee), limits each queue's allocation to its deserved share, admits
 * jobs within real capability, and lets other queues reclaim what a queue holds beyond its deserved
 * share.
 */
public final class ProportionPlugin implements Plugin {

  /** The registration name. */
  public static final String NAME = "proportion";

  private Session session;
  private Map<String, QueueAttr> attrs = Map.of();

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session session, Extensions extensions) {
    this.session = session;
    this.attrs = QueueAttrs.build(session);

    extensions.add(ExtensionPoint.QUEUE_ORDER, this::compareQueues);
    extensions.add(ExtensionPoint.RECLAIMABLE, this::reclaimable);
    extensions.add(ExtensionPoint.OVERUSED, this::overused);
    extensions.add(ExtensionPoint.ALLOCATABLE, this::allocatable);
    extensions.add(
        ExtensionPoint.PREEMPTIVE,
        (queue, tasks) -> queueAllocatable(attrs.get(queue.name()), queue, tasks));
    extensions.add(ExtensionPoint.JOB_ENQUEUEABLE, this::enqueueable);
    extensions.add(ExtensionPoint.JOB_ENQUEUED, this::enqueued);
    extensions.add(ExtensionPoint.PRE_PREDICATE, this::prePredicate);
    extensions.add(ExtensionPoint.SIMULATE_ALLOCATABLE, this::simulateAllocatable);
    extensions.add(
        ExtensionPoint.SIMULATE_ADD_TASK,
        (state, toSchedule, toAdd, node) -> simulateChange(state, toAdd, true));
    extensions.add(
        ExtensionPoint.SIMULATE_REMOVE_TASK,
        (state, toSchedule, toRemove, node) -> simulateChange(state, toRemove, false));
    extensions.add(
        ExtensionPoint.EVENT_HANDLER,
        new EventHandler() {
          @Override
          public Status allocated(TaskInfo task) {
            change(attrs, task, true);
            return Status.OK;
          }

          @Override
          public void deallocated(TaskInfo task) {
            change(attrs, task, false);
          }
        });
  }

  /** The queue's attributes (deserved, allocated, share...), or null without jobs. For tests. */
  QueueAttr attr(String queue) {
    return attrs.get(queue);
  }

  /** Higher {@code spec.priority} first, then the lower share; else undecided. */
  private int compareQueues(QueueInfo l, QueueInfo r) {
    if (l.priority() != r.priority()) {
      return Integer.compare(r.priority(), l.priority());
    }
    double ls = shareOf(l.name());
    double rs = shareOf(r.name());
    if (ls == rs) {
      return 0;
    }
    return ls < rs ? -1 : 1;
  }

  private double shareOf(String queue) {
    QueueAttr attr = attrs.get(queue);
    return attr == null ? 0 : attr.share;
  }

  /** Every dimension of deserved is within allocated (ε), {@code pods} included. */
  private boolean overused(QueueInfo queue) {
    QueueAttr attr = attrs.get(queue.name());
    boolean over = attr != null && attr.deserved.lessEqual(attr.allocated, Dimension.ZERO);
    if (over) {
      List<String> names = attr.deserved.resourceNames();
      List<Blocker.Figure> figures =
          Blocker.figures(names, Resource.empty(), attr.allocated, attr.deserved, "deserved");
      session.reportQueueBlocker(
          queue,
          Blocker.of(
              Blocker.Stage.QUEUE_DESERVED,
              Blocker.describe(queue.name(), figures) + " (allocated reached deserved)",
              figures));
    }
    return over;
  }

  /** AllocatableFn: {@link #queueAllocatable} for one task, reporting the figures of a refusal. */
  private boolean allocatable(QueueInfo queue, TaskInfo task) {
    QueueAttr attr = attrs.get(queue.name());
    if (queueAllocatable(attr, queue, List.of(task))) {
      return true;
    }
    JobInfo job = session.job(task.jobId());
    if (attr != null && job != null && queue.isOpen()) {
      ResourceView request = task.resreq();
      List<String> names =
          attr.allocated
              .copy()
              .add(request)
              .lessEqualWithDimensionAndResourcesName(attr.deserved, request);
      List<Blocker.Figure> figures =
          Blocker.figures(names, request, attr.allocated, attr.deserved, "deserved");
      session.reportBlocker(
          job,
          Blocker.of(
              Blocker.Stage.QUEUE_DESERVED,
              "task " + task.name() + ": " + Blocker.describe(queue.name(), figures),
              figures));
    }
    return false;
  }

  /**
   * {@code queueAllocatable}: an Open queue whose allocation plus the tasks' requests stays within
   * deserved on every dimension the tasks request ({@code pods} aside), strictly, without ε.
   */
  private static boolean queueAllocatable(
      QueueAttr attr, QueueInfo queue, List<? extends TaskInfo> tasks) {
    if (attr == null || !queue.isOpen()) {
      return false;
    }
    Resource request = Resource.empty();
    for (TaskInfo t : tasks) {
      request.add(t.resreq());
    }
    Resource futureUsed = attr.allocated.copy().add(request);
    return futureUsed.lessEqualWithDimensionAndResourcesName(attr.deserved, request).isEmpty();
  }

  /**
   * Candidates, in input order, from queues still above deserved on some dimension, counting the
   * victims already taken from the same queue.
   */
  private Victims reclaimable(TaskInfo reclaimer, List<TaskInfo> candidates) {
    Map<String, Resource> allocations = new HashMap<>();
    List<TaskInfo> victims = new ArrayList<>();
    for (TaskInfo candidate : candidates) {
      JobInfo job = session.job(candidate.jobId());
      QueueAttr attr = job == null ? null : attrs.get(job.queue());
      if (attr == null) {
        continue;
      }
      Resource allocated = allocations.computeIfAbsent(attr.name, k -> attr.allocated.copy());
      if (!allocated.lessEqual(attr.deserved, Dimension.ZERO)) {
        allocated.sub(candidate.resreq());
        victims.add(candidate);
      }
    }
    return Victims.permit(victims);
  }

  /**
   * Admits a job whose minimum, with what the queue holds and has admitted (less elastic use), fits
   * the queue's real capability on the dimensions the minimum names; else records why and rejects.
   */
  private Vote enqueueable(JobInfo job) {
    QueueInfo queue = session.queue(job.queue());
    if (queue == null || !queue.isOpen()) {
      return Vote.REJECT;
    }
    QueueAttr attr = attrs.get(queue.name());
    if (attr == null || attr.realCapability == null || job.minResources() == null) {
      return Vote.PERMIT;
    }
    Resource minReq = Resource.copyOf(job.minResources());
    Resource wanted = minReq.copy().add(attr.allocated).add(attr.inqueue).sub(attr.elastic);
    List<String> insufficient =
        wanted.lessEqualWithDimensionAndResourcesName(attr.realCapability, minReq);
    if (insufficient.isEmpty()) {
      return Vote.PERMIT;
    }
    session.recordEvent(
        "PodGroup", job.uid(), "Normal", "Unschedulable", insufficientMessage(insufficient));
    Resource held = attr.allocated.copy().add(attr.inqueue).sub(attr.elastic);
    List<Blocker.Figure> figures =
        Blocker.figures(insufficient, minReq, held, attr.realCapability, "realCapability");
    session.reportBlocker(
        job,
        Blocker.of(
            Blocker.Stage.QUEUE_CAPABILITY, Blocker.describe(queue.name(), figures), figures));
    return Vote.REJECT;
  }

  /**
   * {@code util.FormatResourceNames("queue resource quota insufficient", "insufficient", names)}.
   */
  static String insufficientMessage(List<String> names) {
    String prefix = "queue resource quota insufficient";
    if (names.isEmpty()) {
      return prefix;
    }
    List<String> parts = new ArrayList<>(names.size());
    for (String n : names) {
      parts.add("insufficient " + n);
    }
    return prefix + ": " + String.join(", ", parts);
  }

  private void enqueued(JobInfo job) {
    QueueAttr attr = attrs.get(job.queue());
    if (attr != null && job.minResources() != null) {
      Resource inqueue =
          attr.inqueue.copy().add(job.deductSchedulingGated(Resource.copyOf(job.minResources())));
      attrs.put(job.queue(), attr.withInqueue(inqueue));
    }
  }

  private Status prePredicate(TaskInfo task) {
    session.cycleState(task).write(ProportionState.KEY, new ProportionState(attrs));
    return Status.OK;
  }

  private boolean simulateAllocatable(CycleState state, QueueInfo queue, TaskInfo task) {
    ProportionState s = (ProportionState) state.read(ProportionState.KEY);
    return s != null && queueAllocatable(s.attrs.get(queue.name()), queue, List.of(task));
  }

  private Status simulateChange(CycleState state, TaskInfo task, boolean add) {
    ProportionState s = (ProportionState) state.read(ProportionState.KEY);
    if (s == null) {
      return Status.error("proportion: no cycle state for " + task.key());
    }
    change(s.attrs, task, add);
    return Status.OK;
  }

  /** Adds or removes the task's request on its queue and refreshes the share. */
  private void change(Map<String, QueueAttr> table, TaskInfo task, boolean add) {
    JobInfo job = session.job(task.jobId());
    QueueAttr attr = job == null ? null : table.get(job.queue());
    if (attr == null) {
      return;
    }
    Resource allocated = attr.allocated.copy();
    if (add) {
      allocated.add(task.resreq());
    } else {
      allocated.sub(task.resreq());
    }
    table.put(job.queue(), attr.withAllocated(allocated));
  }
}
