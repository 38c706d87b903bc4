package dev.caldera.api.extension;

import dev.caldera.api.info.TaskInfo;
import java.util.List;

/**
 * What must be bound before a task's pod is bound: the volume decisions a plugin assumed for the
 * task on its node. Called once per bind, on the scheduling thread, when the session decides the
 * bind; the cluster writer applies the volumes first. Returns an empty list when there is nothing.
 */
@FunctionalInterface
public interface PreBindFn {
  List<VolumeBinding> volumes(TaskInfo task);
}
