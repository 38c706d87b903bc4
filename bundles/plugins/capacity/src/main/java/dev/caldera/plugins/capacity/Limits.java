package dev.caldera.plugins.capacity;

import dev.caldera.api.Session;
import dev.caldera.api.info.Blocker;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.resource.ResourceNames;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.support.resource.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The capacity checks of Allocatable and JobEnqueueable, and the events that explain a refusal: the
 * queue (and the ancestor whose limit was hit), each resource, what was requested, what the total
 * would be and the limit, in Kubernetes units. An event is recorded once per object and message in
 * a session, however often the check is repeated.
 */
final class Limits {

  static final String EVENT_REASON = "Unschedulable";
  static final String QUOTA_INSUFFICIENT = "queue resource quota insufficient";

  private final Session session;
  private final Set<String> recorded = ConcurrentHashMap.newKeySet();

  Limits(Session session) {
    this.session = session;
  }

  /**
   * {@code (allocated + request).LessEqualWithDimensionAndResourcesName(limit, request)} without
   * allocating: on every dimension the request asks for ({@code pods} aside), allocated + request
   * stays within the limit, compared strictly.
   */
  static boolean within(ResourceView allocated, ResourceView request, ResourceView limit) {
    for (int i = 0; i < 2; i++) {
      double q = request.get(i);
      if (q > 0 && allocated.get(i) + q > limit.get(i)) {
        return false;
      }
    }
    for (int i = ResourceNames.PODS_INDEX + 1; i < request.width(); i++) {
      double q = request.get(i);
      if (q > 0 && allocated.get(i) + q > limit.get(i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Allocatable along the chain from the leaf up: the first queue whose real capability the task
   * would exceed, or null if every level takes it. {@code allocated} holds a simulation's
   * allocations by queue index; null means the queues' own.
   */
  static QueueAttr firstExceeded(QueueAttr leaf, Resource[] allocated, TaskInfo task) {
    for (QueueAttr level = leaf; level != null; level = level.parent) {
      Resource used = allocated == null ? level.allocated : allocated[level.index];
      if (!within(used, task.resreq(), level.realCapability)) {
        return level;
      }
    }
    return null;
  }

  /** Records why the task does not fit {@code level}, on the pod. */
  void refuseTask(TaskInfo task, QueueAttr leaf, QueueAttr level) {
    ResourceView request = task.resreq();
    Resource total = level.allocated.copy().add(request);
    List<String> names =
        total.lessEqualWithDimensionAndResourcesName(level.realCapability, request);
    String message = message(names, leaf, level, request, total);
    record("Pod", task.key(), message);
    JobInfo job = session.job(task.jobId());
    if (job != null) {
      session.reportBlocker(job, blocker(names, level, request, total, message));
    }
  }

  /** The blocker of a refusal at {@code level}: per resource, requested, held and the limit. */
  private static Blocker blocker(
      List<String> names,
      QueueAttr level,
      ResourceView requested,
      ResourceView total,
      String message) {
    Resource held = Resource.copyOf(total).sub(requested);
    String limit = "realCapability" + (level.parent == null ? "" : " of " + level.name);
    return Blocker.of(
        Blocker.Stage.QUEUE_CAPABILITY,
        message,
        Blocker.figures(names, requested, held, level.realCapability, limit));
  }

  /**
   * The job's minimum against each level from the leaf up ({@code minReq + allocated + inqueue −
   * elastic} within real capability on the minimum's dimensions); records the refusal on the pod
   * group and returns false at the first level that does not take it.
   */
  boolean enqueueable(JobInfo job, QueueAttr leaf) {
    ResourceView minimum = job.minResources();
    for (QueueAttr level = leaf; level != null; level = level.parent) {
      Resource total =
          Resource.copyOf(minimum).add(level.allocated).add(level.inqueue).sub(level.elastic);
      List<String> names =
          total.lessEqualWithDimensionAndResourcesName(level.realCapability, minimum);
      if (!names.isEmpty()) {
        String message = message(names, leaf, level, minimum, total);
        record("PodGroup", job.uid(), message);
        session.reportBlocker(job, blocker(names, level, minimum, total, message));
        return false;
      }
    }
    return true;
  }

  /**
   * Volcano's text ({@code util.FormatResourceNames}), then the details: {@code queue q (limit of
   * ancestor a): cpu requested 3, total would be 5, limit 4}.
   */
  static String message(
      List<String> names,
      QueueAttr leaf,
      QueueAttr level,
      ResourceView requested,
      ResourceView total) {
    StringBuilder sb = new StringBuilder(QUOTA_INSUFFICIENT);
    List<String> parts = new ArrayList<>(names.size());
    for (String n : names) {
      parts.add("insufficient " + n);
    }
    if (!parts.isEmpty()) {
      sb.append(": ").append(String.join(", ", parts));
    }
    sb.append("; queue ").append(leaf.name);
    if (level != leaf) {
      sb.append(" (limit of ancestor ").append(level.name).append(')');
    }
    sb.append(':');
    String sep = " ";
    for (String n : names) {
      int i = ResourceNames.indexOf(n);
      sb.append(sep)
          .append(n)
          .append(" requested ")
          .append(Quantities.format(i, requested.get(i)))
          .append(", total would be ")
          .append(Quantities.format(i, total.get(i)))
          .append(", limit ")
          .append(Quantities.format(i, level.realCapability.get(i)));
      sep = "; ";
    }
    return sb.toString();
  }

  /** Records a refusal event once per object and message in this session. */
  void record(String kind, String key, String message) {
    if (recorded.add(kind + '\u0000' + key + '\u0000' + message)) {
      session.recordEvent(kind, key, "Normal", EVENT_REASON, message);
    }
  }
}
