package dev.caldera.api.extension;

import dev.caldera.api.info.JobInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Orders jobs: negative puts {@code l} first, 0 lets the next plugin decide. Called on the
 * scheduling thread.
 */
@ConsumerType
@FunctionalInterface
public interface JobOrderFn {
  int compare(JobInfo l, JobInfo r);
}
