package dev.caldera.api.extension;

import dev.caldera.api.info.JobInfo;
import org.osgi.annotation.versioning.ConsumerType;

/** Told that a job was admitted, so plugins count its minimum. */
@ConsumerType
@FunctionalInterface
public interface JobEnqueuedFn {
  void enqueued(JobInfo job);
}
