package dev.caldera.api.extension;

import dev.caldera.api.info.JobInfo;
import org.osgi.annotation.versioning.ConsumerType;

/** Whether a job still needs resources (it may preempt or reclaim). */
@ConsumerType
@FunctionalInterface
public interface JobStarvingFn {
  boolean test(JobInfo job);
}
