package dev.caldera.api.extension;

import dev.caldera.api.info.TaskInfo;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Told when a task starts or stops counting as placed: allocate, pipeline and un-evict call {@link
 * #allocated}; evict, un-allocate and un-pipeline call {@link #deallocated}. Handlers run in the
 * order plugins were opened.
 */
@ConsumerType
public interface EventHandler {

  /** The task now counts as placed on its node. A failure rolls the operation back. */
  default Status allocated(TaskInfo task) {
    return Status.OK;
  }

  /** The task no longer counts as placed. */
  default void deallocated(TaskInfo task) {}
}
