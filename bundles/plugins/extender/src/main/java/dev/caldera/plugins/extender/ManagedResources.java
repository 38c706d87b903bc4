package dev.caldera.plugins.extender;

import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.Container;
import java.util.List;
import java.util.Set;

/**
 * Which tasks concern the extender ({@code IsInterested}): every task when no managed resources are
 * configured, else those with a container or init container that requests one of them. (Volcano
 * also looks at limits; Caldera's pod model carries requests only.)
 */
final class ManagedResources {

  private final Set<String> names;

  ManagedResources(Set<String> names) {
    this.names = Set.copyOf(names);
  }

  /** Whether the extender should be asked about {@code task}. */
  boolean interested(TaskInfo task) {
    if (names.isEmpty()) {
      return true;
    }
    return requestsAny(task.pod().containers()) || requestsAny(task.pod().initContainers());
  }

  private boolean requestsAny(List<Container> containers) {
    for (Container c : containers) {
      for (String name : c.requests().keySet()) {
        if (names.contains(name)) {
          return true;
        }
      }
    }
    return false;
  }
}
