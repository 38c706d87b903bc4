package dev.caldera.api.extension;

import dev.caldera.api.info.JobInfo;

/** Told that a job was admitted, so plugins count its minimum. */
@FunctionalInterface
public interface JobEnqueuedFn {
  void enqueued(JobInfo job);
}
