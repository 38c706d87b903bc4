package dev.caldera.api.extension;

import dev.caldera.api.info.JobInfo;

/**
 * Orders jobs: negative puts {@code l} first, 0 lets the next plugin decide. Called on the
 * scheduling thread.
 */
@FunctionalInterface
public interface JobOrderFn {
  int compare(JobInfo l, JobInfo r);
}
