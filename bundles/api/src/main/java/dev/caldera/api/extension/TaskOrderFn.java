package dev.caldera.api.extension;

import dev.caldera.api.info.TaskInfo;
import org.osgi.annotation.versioning.ConsumerType;

/** Orders tasks: negative puts {@code l} first, 0 lets the next plugin decide. */
@ConsumerType
@FunctionalInterface
public interface TaskOrderFn {
  int compare(TaskInfo l, TaskInfo r);
}
