package dev.caldera.api.extension;

import dev.caldera.api.info.JobInfo;
import org.osgi.annotation.versioning.ConsumerType;

/** Whether a job may be bound now. All plugins must agree. */
@ConsumerType
@FunctionalInterface
public interface JobReadyFn {
  boolean test(JobInfo job);
}
