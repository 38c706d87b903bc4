package dev.caldera.api.extension;

import dev.caldera.api.info.JobInfo;
import org.osgi.annotation.versioning.ConsumerType;

/** Votes on whether a job counts as pipelined (placed once resources are released). */
@ConsumerType
@FunctionalInterface
public interface JobPipelinedFn {
  Vote vote(JobInfo job);
}
