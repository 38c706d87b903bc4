package dev.caldera.api.extension;

import dev.caldera.api.info.TaskInfo;
import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Which of the candidates (tasks of other queues) the reclaimer may evict; see {@link Victims}.
 *
 * <ul>
 *   <li>Called by: {@code reclaim}.
 *   <li>Combined: as {@link PreemptableFn}: intersection inside a tier, the first tier with a
 *       non-empty result decides.
 *   <li>Gate: {@code enableReclaimable}.
 *   <li>Threading: on the session's thread.
 *   <li>Null: null abstains, like {@link Vote#ABSTAIN}.
 * </ul>
 */
@ConsumerType
@FunctionalInterface
public interface ReclaimableFn {
  Victims select(TaskInfo reclaimer, List<TaskInfo> candidates);
}
