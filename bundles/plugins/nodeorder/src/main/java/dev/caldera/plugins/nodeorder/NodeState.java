package dev.caldera.plugins.nodeorder;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.Taint;
import dev.caldera.api.resource.Quantity;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What kube-scheduler's {@code NodeInfo} holds for one node, as Volcano keeps it in {@code
 * ssn.NodeMap}: the node object, its allocatable in Kubernetes units, and the pods counted on it
 * with their summed requests ({@code Requested} and {@code NonZeroRequested}).
 */
final class NodeState {

  /** A task counted on a node, with what the scorers read of it. */
  record Placed(TaskInfo task, Pod pod, PodRequest request, NodeState node) {}

  /** The session's view of the node (the key of its shared topology counts). */
  final NodeInfo info;

  final String name;
  final Node node;
  final Map<String, String> labels;
  final long allocMilliCpu;
  final long allocMemory;
  final long allocGpu;

  /** Whether the node has any PreferNoSchedule taint. */
  final boolean preferNoSchedule;

  /** The node's images, or null. */
  final ImageScores images;

  long nonZeroMilliCpu;
  long nonZeroMemory;
  long milliCpu;
  long memory;
  long gpu;

  private final Map<String, Placed> pods = new LinkedHashMap<>();

  NodeState(NodeInfo info, ImageScores images) {
    Node node = info.node();
    this.info = info;
    this.name = node.name();
    this.node = node;
    this.labels = node.metadata().labels();
    Map<String, Quantity> allocatable = node.allocatable();
    this.allocMilliCpu = milli(allocatable.get(PodRequest.CPU));
    this.allocMemory = whole(allocatable.get(PodRequest.MEMORY));
    this.allocGpu = whole(allocatable.get(PodRequest.GPU));
    boolean pns = false;
    for (Taint t : node.taints()) {
      pns |= TaintTolerationScorer.PREFER_NO_SCHEDULE.equals(t.effect());
    }
    this.preferNoSchedule = pns;
    this.images = images;
  }

  private static long milli(Quantity q) {
    return q == null ? 0 : q.milliValue();
  }

  private static long whole(Quantity q) {
    return q == null ? 0 : q.value();
  }

  /** The pods counted on this node, in the order they were added. */
  Collection<Placed> pods() {
    return pods.values();
  }

  void add(Placed p) {
    pods.put(p.task().uid(), p);
    PodRequest r = p.request();
    nonZeroMilliCpu += r.nonZeroMilliCpu();
    nonZeroMemory += r.nonZeroMemory();
    milliCpu += r.milliCpu();
    memory += r.memory();
    gpu += r.gpu();
  }

  void remove(Placed p) {
    if (pods.remove(p.task().uid()) == null) {
      return;
    }
    PodRequest r = p.request();
    nonZeroMilliCpu -= r.nonZeroMilliCpu();
    nonZeroMemory -= r.nonZeroMemory();
    milliCpu -= r.milliCpu();
    memory -= r.memory();
    gpu -= r.gpu();
  }
}
