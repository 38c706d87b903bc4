package dev.caldera.api.extension;

import dev.caldera.api.info.JobInfo;

/** Votes on admitting a Pending job (see the vote rules in the framework). */
@FunctionalInterface
public interface JobEnqueueableFn {
  Vote vote(JobInfo job);
}
