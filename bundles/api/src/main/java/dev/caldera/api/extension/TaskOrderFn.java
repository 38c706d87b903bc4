package dev.caldera.api.extension;

import dev.caldera.api.info.TaskInfo;

/** Orders tasks: negative puts {@code l} first, 0 lets the next plugin decide. */
@FunctionalInterface
public interface TaskOrderFn {
  int compare(TaskInfo l, TaskInfo r);
}
