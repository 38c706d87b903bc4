package dev.caldera.api.extension;

import dev.caldera.api.info.TaskInfo;
import org.osgi.annotation.versioning.ConsumerType;

/** Runs once per task before its node loop; a failure rejects the task on every node. */
@ConsumerType
@FunctionalInterface
public interface PrePredicateFn {
  Status check(TaskInfo task);
}
