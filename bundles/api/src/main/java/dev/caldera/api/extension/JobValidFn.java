package dev.caldera.api.extension;

import dev.caldera.api.info.JobInfo;
import org.osgi.annotation.versioning.ConsumerType;

/** Checks a job before actions consider it; null or {@code pass} means valid. */
@ConsumerType
@FunctionalInterface
public interface JobValidFn {
  ValidationResult validate(JobInfo job);
}
