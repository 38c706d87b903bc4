package dev.caldera.api.extension;

import dev.caldera.api.info.JobInfo;

/** Checks a job before actions consider it; null or {@code pass} means valid. */
@FunctionalInterface
public interface JobValidFn {
  ValidationResult validate(JobInfo job);
}
