package dev.caldera.api.extension;

import dev.caldera.api.info.JobInfo;

/** Whether a job still needs resources (it may preempt or reclaim). */
@FunctionalInterface
public interface JobStarvingFn {
  boolean test(JobInfo job);
}
