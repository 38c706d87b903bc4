package dev.caldera.api.extension;

import dev.caldera.api.info.TaskInfo;
import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/** Picks tasks the shuffle action should evict. */
@ConsumerType
@FunctionalInterface
public interface VictimTasksFn {
  List<TaskInfo> select(List<TaskInfo> tasks);
}
