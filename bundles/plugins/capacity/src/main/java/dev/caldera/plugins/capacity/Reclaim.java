package dev.caldera.plugins.capacity;

import dev.caldera.api.Session;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.resource.Dimension;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.support.resource.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reclaim across queues: which queue may reclaim (Preemptive) and which running tasks of other
 * queues it may take (Reclaimable). A queue keeps its guarantee; beyond that, a task is a victim
 * when its queue deserves none of what it uses, or while its queue is above deserved on a dimension
 * the task uses. With {@code ancestorReclaimLevel} L in a hierarchy, the ancestors up to L levels
 * may grant reclaim to a leaf and must themselves be above deserved for a victim to go.
 */
final class Reclaim {

  private final Session session;
  private final QueueTable table;
  private final int level;

  Reclaim(Session session, QueueTable table, int ancestorReclaimLevel) {
    this.session = session;
    this.table = table;
    this.level = table.hierarchy() ? ancestorReclaimLevel : 0;
  }

  /**
   * PreemptiveFn: an Open queue that takes jobs, within its real capability with the tasks, and
   * within deserved on at least one requested dimension (or, with the ancestor level, one of its
   * ancestors is).
   */
  boolean preemptive(QueueInfo queue, List<TaskInfo> tasks) {
    QueueAttr attr = table.get(queue.name());
    if (attr == null || attr.refusalReason != null || !queue.isOpen()) {
      return false;
    }
    Resource request = Resource.empty();
    for (TaskInfo t : tasks) {
      if (t != null) {
        request.add(t.resreq());
      }
    }
    Resource futureUsed = attr.allocated.copy().add(request);
    if (!futureUsed
        .lessEqualWithDimensionAndResourcesName(attr.realCapability, request)
        .isEmpty()) {
      return false;
    }
    if (!futureUsed.lessEqualPartlyWithDimensionZeroFiltered(attr.deserved, request).isEmpty()) {
      return true;
    }
    for (int depth = 1; depth <= level; depth++) {
      QueueAttr ancestor = attr.ancestorAtDepth(depth);
      if (ancestor == null || ancestor == table.root()) {
        continue;
      }
      Resource ancestorUsed = ancestor.allocated.copy().add(request);
      if (!ancestorUsed
          .lessEqualPartlyWithDimensionZeroFiltered(ancestor.deserved, request)
          .isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /** ReclaimableFn: the eligible candidates, in eviction order, counting earlier victims. */
  Victims reclaimable(TaskInfo reclaimer, List<TaskInfo> candidates) {
    JobInfo reclaimerJob = session.job(reclaimer.jobId());
    QueueAttr reclaimerAttr = reclaimerJob == null ? null : table.get(reclaimerJob.queue());
    if (reclaimerAttr == null || reclaimerAttr.refusalReason != null) {
      return Victims.reject();
    }
    Map<QueueAttr, Resource> allocations = new HashMap<>();
    List<TaskInfo> victims = new ArrayList<>();
    for (TaskInfo candidate : session.victimOrder(candidates, reclaimer)) {
      JobInfo job = session.job(candidate.jobId());
      QueueAttr attr = job == null ? null : table.get(job.queue());
      if (attr == null || attr.excluded) {
        continue;
      }
      if (Resource.intersectionIgnoringPods(candidate.resreq(), reclaimer.initResreq()).isEmpty()) {
        continue;
      }
      Resource allocated = allocations.computeIfAbsent(attr, a -> a.allocated.copy());
      Resource remaining = allocated.copy().sub(candidate.resreq());
      if (!attr.guarantee.lessEqual(remaining, Dimension.ZERO)) {
        continue;
      }
      if (!relevant(candidate, attr.deserved)) {
        if (level > 0
            && sharesAncestorWithinLevel(reclaimerAttr, attr)
            && !relevant(reclaimer, reclaimerAttr.deserved)) {
          continue;
        }
      } else if (!allocated.greaterPartlyWithRelevantDimensions(
          attr.deserved, candidate.resreq())) {
        continue;
      }
      List<Resource> ancestorAllocations =
          ancestorsEligible(reclaimerAttr, attr, candidate, allocations);
      if (ancestorAllocations == null) {
        continue;
      }
      allocated.sub(candidate.resreq());
      for (Resource a : ancestorAllocations) {
        a.sub(candidate.resreq());
      }
      victims.add(candidate);
    }
    return Victims.permit(victims);
  }

  /**
   * With the ancestor level: each of the victim queue's ancestors up to that level (not the root,
   * not one it shares with the reclaimer at the same depth) must deserve none of what the candidate
   * uses or be above its deserved. Returns those ancestors' running allocations, or null when one
   * protects the candidate.
   */
  private List<Resource> ancestorsEligible(
      QueueAttr reclaimerAttr,
      QueueAttr attr,
      TaskInfo candidate,
      Map<QueueAttr, Resource> allocations) {
    List<Resource> out = new ArrayList<>(level);
    for (int depth = 1; depth <= level; depth++) {
      QueueAttr ancestor = attr.ancestorAtDepth(depth);
      if (ancestor == null
          || ancestor == table.root()
          || ancestor == reclaimerAttr.ancestorAtDepth(depth)) {
        continue;
      }
      Resource allocated = allocations.computeIfAbsent(ancestor, a -> a.allocated.copy());
      out.add(allocated);
      if (relevant(candidate, ancestor.deserved)
          && !allocated.greaterPartlyWithRelevantDimensions(
              ancestor.deserved, candidate.resreq())) {
        return null;
      }
    }
    return out;
  }

  /** {@code hasRelevantDeserved}: the task's request and deserved share a dimension. */
  private static boolean relevant(TaskInfo task, ResourceView deserved) {
    return !Resource.intersection(task.resreq(), deserved).isEmpty();
  }

  /** Whether both queues have the same non-root ancestor within the level (at any depths). */
  private boolean sharesAncestorWithinLevel(QueueAttr a, QueueAttr b) {
    Set<QueueAttr> mine = new HashSet<>();
    for (int depth = 1; depth <= level; depth++) {
      QueueAttr ancestor = a.ancestorAtDepth(depth);
      if (ancestor != null && ancestor != table.root()) {
        mine.add(ancestor);
      }
    }
    for (int depth = 1; depth <= level; depth++) {
      QueueAttr ancestor = b.ancestorAtDepth(depth);
      if (ancestor != null && mine.contains(ancestor)) {
        return true;
      }
    }
    return false;
  }
}
