package dev.caldera.api.extension;

import dev.caldera.api.info.JobInfo;

/** Votes on whether a job counts as pipelined (placed once resources are released). */
@FunctionalInterface
public interface JobPipelinedFn {
  Vote vote(JobInfo job);
}
