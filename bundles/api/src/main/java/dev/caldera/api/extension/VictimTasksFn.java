package dev.caldera.api.extension;

import dev.caldera.api.info.TaskInfo;
import java.util.List;

/** Picks tasks the shuffle action should evict. */
@FunctionalInterface
public interface VictimTasksFn {
  List<TaskInfo> select(List<TaskInfo> tasks);
}
