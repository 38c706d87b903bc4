package dev.caldera.plugins.predicates;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One node as the filters see it in a session: the node's tasks except those evicted in this
 * session (Volcano's predicates keep a pod list that drops a victim at once), with the host ports
 * they use. The view is built on first use and rebuilt after an event touched the node; the event
 * handler runs between predicate rounds, so a view is never rebuilt while it is being read.
 */
final class NodeSlot {

  final NodeInfo info;
  private volatile int version;
  private volatile View view;

  NodeSlot(NodeInfo info) {
    this.info = info;
  }

  /** Marks the view out of date; called by the event handler. */
  void touch() {
    version++;
  }

  /** The current view, given the tasks evicted in this session. */
  View view(Map<String, ?> evicted) {
    int v = version;
    View current = view;
    if (current == null || current.version != v) {
      current = new View(v, counted(info.tasks(), evicted));
      view = current;
    }
    return current;
  }

  private static List<TaskInfo> counted(List<TaskInfo> tasks, Map<String, ?> evicted) {
    if (evicted.isEmpty()) {
      return List.copyOf(tasks);
    }
    List<TaskInfo> out = new ArrayList<>(tasks.size());
    for (TaskInfo t : tasks) {
      if (!evicted.containsKey(t.uid())) {
        out.add(t);
      }
    }
    return out;
  }

  /** The pods counted on the node, and their host ports (built when first asked). */
  static final class View {
    private final int version;
    final List<TaskInfo> pods;
    private volatile HostPorts ports;

    private View(int version, List<TaskInfo> pods) {
      this.version = version;
      this.pods = pods;
    }

    HostPorts ports() {
      HostPorts p = ports;
      if (p == null) {
        p = HostPorts.of(pods);
        ports = p;
      }
      return p;
    }
  }
}
