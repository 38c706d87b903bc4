package dev.caldera.api.extension;

import dev.caldera.api.info.TaskInfo;
import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * Which of the candidates (tasks of the same queue) the preemptor may evict; see {@link Victims}.
 *
 * <ul>
 *   <li>Called by: {@code preempt} (also its topology-aware variant).
 *   <li>Combined: inside a tier the victim lists intersect (in the first plugin's order); an
 *       abstaining plugin is skipped; an empty answer or a reject ends the tier with no result; the
 *       first tier with a non-empty result decides, else nobody is evicted.
 *   <li>Gate: {@code enablePreemptable}.
 *   <li>Threading: on the session's thread.
 *   <li>Null: null abstains, like {@link Vote#ABSTAIN}.
 * </ul>
 */
@ConsumerType
@FunctionalInterface
public interface PreemptableFn {
  Victims select(TaskInfo preemptor, List<TaskInfo> candidates);
}
