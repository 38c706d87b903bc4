package dev.caldera.framework.internal.actions;

import dev.caldera.api.action.ActionSession;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The session's nodes for one action run, in {@code session.nodes()} order (Volcano's {@code
 * NodeList}), with index lookups and the scratch buffer that {@link PredicateHelper} fills.
 */
final class NodeSet {

  private final NodeInfo[] nodes;
  private final int[] all;
  private final Map<String, Integer> index;
  private final Status[] scratch;
  private final byte[] outcomes;

  NodeSet(List<NodeInfo> nodes) {
    this.nodes = nodes.toArray(new NodeInfo[0]);
    this.all = new int[this.nodes.length];
    this.index = new HashMap<>(this.nodes.length * 2);
    for (int i = 0; i < this.nodes.length; i++) {
      all[i] = i;
      index.put(this.nodes[i].name(), i);
    }
    this.scratch = new Status[this.nodes.length];
    this.outcomes = new byte[this.nodes.length];
  }

  static NodeSet of(ActionSession session) {
    return new NodeSet(session.nodes());
  }

  int size() {
    return nodes.length;
  }

  NodeInfo get(int i) {
    return nodes[i];
  }

  /** The index of the node named {@code name}, or -1. */
  int indexOf(String name) {
    Integer i = index.get(name);
    return i == null ? -1 : i;
  }

  /** Every node index, in order. Do not modify. */
  int[] all() {
    return all;
  }

  /**
   * {@code FilterOutUnschedulableAndUnresolvableNodesForTask}: the nodes on which the task's fit
   * errors of this session are not UnschedulableAndUnresolvable, in order.
   */
  int[] withoutUnresolvable(ActionSession session, TaskInfo task) {
    if (!session.hasFitErrors(task)) {
      return all;
    }
    int[] kept = new int[nodes.length];
    int n = 0;
    for (int i = 0; i < nodes.length; i++) {
      if (!session.unresolvableOn(task, nodes[i].name())) {
        kept[n++] = i;
      }
    }
    return n == nodes.length ? all : Arrays.copyOf(kept, n);
  }

  /** A buffer with one slot per node, shared by the filters of one action run. */
  Status[] scratch() {
    return scratch;
  }

  /** A buffer of per-node check outcomes, shared like {@link #scratch()}. */
  byte[] outcomes() {
    return outcomes;
  }

  /** A read-only list of the nodes at {@code indices[0..count)}, backed by the array. */
  List<NodeInfo> view(int[] indices, int count) {
    return new java.util.AbstractList<>() {
      @Override
      public NodeInfo get(int i) {
        java.util.Objects.checkIndex(i, count);
        return nodes[indices[i]];
      }

      @Override
      public int size() {
        return count;
      }
    };
  }
}
