package dev.caldera.api.extension;

import dev.caldera.api.info.TaskInfo;

/** Runs once per task before its node loop; a failure rejects the task on every node. */
@FunctionalInterface
public interface PrePredicateFn {
  Status check(TaskInfo task);
}
