package dev.caldera.api.extension;

import dev.caldera.api.info.TaskInfo;
import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/** Which of the candidates (same queue) the preemptor may evict; see {@link Victims}. */
@ConsumerType
@FunctionalInterface
public interface PreemptableFn {
  Victims select(TaskInfo preemptor, List<TaskInfo> candidates);
}
