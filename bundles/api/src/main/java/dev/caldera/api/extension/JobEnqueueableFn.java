package dev.caldera.api.extension;

import dev.caldera.api.info.JobInfo;
import org.osgi.annotation.versioning.ConsumerType;

/** Votes on admitting a Pending job (see the vote rules in the framework). */
@ConsumerType
@FunctionalInterface
public interface JobEnqueueableFn {
  Vote vote(JobInfo job);
}
