package dev.caldera.plugins.proportion;

import dev.caldera.api.Session;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.resource.Dimension;
import dev.caldera.api.resource.ResourceNames;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.support.resource.Resource;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** Builds proportion's queue attributes at session open and computes each queue's deserved. */
final class QueueAttrs {

  private QueueAttrs() {}

  /** Attributes of the queues that have at least one job, by queue name, deserved computed. */
  static Map<String, QueueAttr> build(Session session) {
    Resource total = Resource.copyOf(session.totalResource());
    Resource totalGuarantee = Resource.empty();
    for (QueueInfo queue : session.queues()) {
      if (queue.queue().guarantee() != null && !queue.queue().guarantee().isEmpty()) {
        totalGuarantee.add(Resource.fromList(queue.queue().guarantee()));
      }
    }
    Map<String, QueueAttr> attrs = new TreeMap<>();
    for (JobInfo job : session.jobs()) {
      QueueAttr attr = attrs.get(job.queue());
      if (attr == null) {
        QueueInfo queue = session.queue(job.queue());
        if (queue == null) {
          continue;
        }
        attr = newAttr(queue, total, totalGuarantee);
        attrs.put(queue.name(), attr);
      }
      addJob(attr, job);
    }
    waterFill(attrs.values(), total);
    return attrs;
  }

  private static QueueAttr newAttr(
      QueueInfo queue, ResourceView total, ResourceView totalGuarantee) {
    QueueAttr attr = new QueueAttr(queue.name(), queue.weight());
    var capability = queue.queue().capability();
    if (capability != null && !capability.isEmpty()) {
      attr.capability = Resource.fromList(capability);
      if (attr.capability.milliCpu() <= 0) {
        attr.capability.set(ResourceNames.CPU_INDEX, Double.MAX_VALUE);
      }
      if (attr.capability.memory() <= 0) {
        attr.capability.set(ResourceNames.MEMORY_INDEX, Double.MAX_VALUE);
      }
    }
    var guarantee = queue.queue().guarantee();
    if (guarantee != null && !guarantee.isEmpty()) {
      attr.guarantee = Resource.fromList(guarantee);
    }
    attr.realCapability = Resource.exceededPart(total, totalGuarantee).add(attr.guarantee);
    if (attr.capability != null) {
      attr.realCapability.minDimension(attr.capability, Dimension.INFINITY);
    }
    return attr;
  }

  private static void addJob(QueueAttr attr, JobInfo job) {
    int allocatedTasks = 0;
    for (TaskStatus s : TaskStatus.values()) {
      if (s.isAllocated()) {
        allocatedTasks += job.taskCount(s);
      }
    }
    // The job's allocated total is its allocated tasks' requests summed (whole numbers, so the sum
    // does not depend on the order): a job all of whose pods run costs no look at each pod.
    attr.allocated.add(job.allocated());
    attr.request.add(job.allocated());
    if (job.taskCount(TaskStatus.PENDING) > 0) {
      for (TaskInfo t : job.tasks()) {
        if (t.status() == TaskStatus.PENDING) {
          attr.request.add(t.resreq());
        }
      }
    }
    if (job.minResources() != null
        && (job.phase() == PodGroupPhase.Inqueue
            || (job.phase() == PodGroupPhase.Running && allocatedTasks >= job.minAvailable()))) {
      attr.inqueue.add(job.inqueueResources());
    }
    attr.elastic.add(job.elasticResources());
  }

  /**
   * Iterative water-filling: every round splits what remains by weight among the queues not yet
   * satisfied, capped by real capability and request and raised to the guarantee. Every queue in a
   * round sees the same remaining, so the order of {@code attrs} does not matter.
   */
  static void waterFill(Collection<QueueAttr> attrs, ResourceView total) {
    Resource remaining = Resource.copyOf(total);
    Set<String> meet = new TreeSet<>();
    while (true) {
      int totalWeight = 0;
      for (QueueAttr a : attrs) {
        if (!meet.contains(a.name)) {
          totalWeight += a.weight;
        }
      }
      if (totalWeight == 0) {
        break;
      }
      Resource oldRemaining = remaining.copy();
      Resource increased = Resource.empty();
      Resource decreased = Resource.empty();
      for (QueueAttr a : attrs) {
        if (meet.contains(a.name)) {
          continue;
        }
        Resource old = a.deserved.copy();
        a.deserved.add(remaining.copy().multiply((double) a.weight / totalWeight));
        a.deserved.minDimension(a.realCapability, Dimension.INFINITY);
        a.deserved.minDimension(a.request, Dimension.ZERO);
        a.deserved = Resource.max(a.deserved, a.guarantee);
        a.updateShare();
        if (a.request.lessEqual(a.deserved, Dimension.ZERO) || a.deserved.deepEquals(old)) {
          meet.add(a.name);
        }
        Resource[] diff = a.deserved.diff(old, Dimension.ZERO);
        increased.add(diff[0]);
        decreased.add(diff[1]);
      }
      remaining = Resource.exceededPart(remaining.add(decreased), increased);
      if (remaining.isEmpty() || remaining.deepEquals(oldRemaining)) {
        break;
      }
    }
  }
}
