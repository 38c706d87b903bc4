package dev.caldera.api.extension;

import dev.caldera.api.info.JobInfo;

/** Whether a job may be bound now. All plugins must agree. */
@FunctionalInterface
public interface JobReadyFn {
  boolean test(JobInfo job);
}
