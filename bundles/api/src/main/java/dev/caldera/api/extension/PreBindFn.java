package dev.caldera.api.extension;

import dev.caldera.api.info.TaskInfo;
import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * What must be bound before a task's pod is bound: the volume decisions a plugin assumed for the
 * task on its node; the cluster writer applies the volumes first.
 *
 * <ul>
 *   <li>Called by: the framework's {@code Ledger} when the session decides a bind (a task of a
 *       ready job is committed), whichever action allocated it.
 *   <li>Combined: every plugin's list, concatenated in plugin order.
 *   <li>Gate: none (always on).
 *   <li>Threading: once per bind, on the session's thread.
 *   <li>Null: not allowed; return an empty list when there is nothing to bind first.
 * </ul>
 */
@ConsumerType
@FunctionalInterface
public interface PreBindFn {
  List<VolumeBinding> volumes(TaskInfo task);
}
