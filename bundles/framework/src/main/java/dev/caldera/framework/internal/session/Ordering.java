package dev.caldera.framework.internal.session;

import static dev.caldera.framework.ExtensionTable.Combination.COMPARE_CHAIN;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.extension.JobOrderFn;
import dev.caldera.api.extension.QueueOrderFn;
import dev.caldera.api.extension.TaskOrderFn;
import dev.caldera.api.extension.VictimQueueOrderFn;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The session's orders of jobs, queues, tasks and victims: the plugins' order functions as a
 * compare chain, then the stable keys that make the order total.
 */
final class Ordering {

  private final JobOrderFn[] jobOrder;
  private final QueueOrderFn[] queueOrder;
  private final TaskOrderFn[] taskOrder;
  private final VictimQueueOrderFn[] victimQueueOrder;
  private final Map<String, JobState> jobs;
  private final Map<String, QueueState> queues;

  Ordering(Registrations.Frozen f, Map<String, JobState> jobs, Map<String, QueueState> queues) {
    this.jobOrder = f.get(ExtensionPoint.JOB_ORDER, COMPARE_CHAIN).fns(JobOrderFn[]::new);
    this.queueOrder = f.get(ExtensionPoint.QUEUE_ORDER, COMPARE_CHAIN).fns(QueueOrderFn[]::new);
    this.taskOrder = f.get(ExtensionPoint.TASK_ORDER, COMPARE_CHAIN).fns(TaskOrderFn[]::new);
    this.victimQueueOrder =
        f.get(ExtensionPoint.VICTIM_QUEUE_ORDER, COMPARE_CHAIN).fns(VictimQueueOrderFn[]::new);
    this.jobs = jobs;
    this.queues = queues;
  }

  int compareJobs(JobInfo l, JobInfo r) {
    int c = compareJobsByPlugins(l, r);
    if (c != 0) {
      return c;
    }
    c = l.creationTimestamp().compareTo(r.creationTimestamp());
    return c != 0 ? c : l.uid().compareTo(r.uid());
  }

  int compareJobsByPlugins(JobInfo l, JobInfo r) {
    for (JobOrderFn fn : jobOrder) {
      int c = fn.compare(l, r);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  int compareQueues(QueueInfo l, QueueInfo r) {
    for (QueueOrderFn fn : queueOrder) {
      int c = fn.compare(l, r);
      if (c != 0) {
        return c;
      }
    }
    int c = l.creationTimestamp().compareTo(r.creationTimestamp());
    return c != 0 ? c : l.name().compareTo(r.name());
  }

  int compareTasks(TaskInfo l, TaskInfo r) {
    for (TaskOrderFn fn : taskOrder) {
      int c = fn.compare(l, r);
      if (c != 0) {
        return c;
      }
    }
    int li = l instanceof TaskState ls ? ls.podIndex() : TaskState.podIndex(l.name());
    int ri = r instanceof TaskState rs ? rs.podIndex() : TaskState.podIndex(r.name());
    if (li >= 0 && ri >= 0 && li != ri) {
      return Integer.compare(li, ri);
    }
    int c = l.creationTimestamp().compareTo(r.creationTimestamp());
    return c != 0 ? c : l.uid().compareTo(r.uid());
  }

  /** {@code victims} in the order they are evicted for {@code evictor}. */
  List<TaskInfo> victimOrder(List<TaskInfo> victims, TaskInfo evictor) {
    List<TaskInfo> sorted = new ArrayList<>(victims);
    JobInfo evictorJob = jobs.get(evictor.jobId());
    sorted.sort((l, r) -> victimCompare(l, r, evictorJob));
    return sorted;
  }

  /** Negative when {@code l} is evicted before {@code r} ({@code BuildVictimsPriorityQueue}). */
  private int victimCompare(TaskInfo l, TaskInfo r, JobInfo evictorJob) {
    if (l.jobId().equals(r.jobId())) {
      return compareTasks(r, l);
    }
    JobInfo lJob = jobs.get(l.jobId());
    JobInfo rJob = jobs.get(r.jobId());
    if (lJob == null || rJob == null) {
      if (lJob == null && rJob == null) {
        return compareTasks(r, l);
      }
      return lJob == null ? -1 : 1;
    }
    if (evictorJob == null || lJob.queue().equals(rJob.queue())) {
      int c = compareJobsByPlugins(lJob, rJob);
      if (c > 0) {
        return -1;
      }
      if (c < 0) {
        return 1;
      }
      return compareTasks(r, l);
    }
    QueueInfo lq = queues.get(lJob.queue());
    QueueInfo rq = queues.get(rJob.queue());
    QueueInfo eq = queues.get(evictorJob.queue());
    for (VictimQueueOrderFn fn : victimQueueOrder) {
      int c = fn.compare(lq, rq, eq);
      if (c != 0) {
        return c;
      }
    }
    return compareQueues(rq, lq);
  }
}
