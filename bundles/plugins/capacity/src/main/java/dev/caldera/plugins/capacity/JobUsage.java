package dev.caldera.plugins.capacity;

import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.PodGroupPhase;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.support.resource.Resource;

/**
 * What one job adds to its queue when the session opens, as Volcano's {@code buildQueueAttrs}
 * counts it: allocated (allocated-status tasks), request (those plus Pending tasks), inqueue (the
 * unallocated part of the minimum of an Inqueue job, or of a Running job with at least minMember
 * allocated tasks) and elastic (allocation above the minimum).
 */
record JobUsage(
    ResourceView allocated, ResourceView request, ResourceView inqueue, ResourceView elastic) {

  static JobUsage of(JobInfo job) {
    Resource allocated = Resource.empty();
    Resource request = Resource.empty();
    int allocatedTasks = 0;
    for (TaskInfo t : job.tasks()) {
      if (t.status().isAllocated()) {
        allocated.add(t.resreq());
        request.add(t.resreq());
        allocatedTasks++;
      } else if (t.status() == TaskStatus.PENDING) {
        request.add(t.resreq());
      }
    }
    Resource inqueue = Resource.empty();
    if (job.minResources() != null
        && (job.phase() == PodGroupPhase.Inqueue
            || (job.phase() == PodGroupPhase.Running && allocatedTasks >= job.minAvailable()))) {
      inqueue.add(job.inqueueResources());
    }
    return new JobUsage(allocated, request, inqueue, Resource.copyOf(job.elasticResources()));
  }

  void addTo(QueueAttr attr) {
    attr.allocated.add(allocated);
    attr.request.add(request);
    attr.inqueue.add(inqueue);
    attr.elastic.add(elastic);
  }
}
