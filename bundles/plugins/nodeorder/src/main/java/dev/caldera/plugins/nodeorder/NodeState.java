package dev.caldera.plugins.nodeorder;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.Taint;
import dev.caldera.api.resource.Quantity;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What kube-scheduler's {@code NodeInfo} holds for one node, as Volcano keeps it in {@code
 * ssn.NodeMap}: the node object, its allocatable in Kubernetes units, and the pods counted on it
 * with their summed requests ({@code Requested} and {@code NonZeroRequested}).
 */
final class NodeState {

  /** A task counted on a node, with what the scorers read of it. */
  record Placed(TaskInfo task, Pod pod, PodRequest request) {}

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

  /** The counted pods by task UID; shared with a published count until {@link #owned}. */
  private Map<String, Placed> pods = new LinkedHashMap<>();

  private boolean owned = true;

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

  /** The pod counted for the task with this UID, or null. */
  Placed placed(String taskUid) {
    return pods.get(taskUid);
  }

  /** Takes a published count: its pods stay shared until this node changes. */
  void take(CountedNodes.Count count) {
    pods = count.pods();
    owned = false;
    long[] s = count.sums();
    nonZeroMilliCpu = s[0];
    nonZeroMemory = s[1];
    milliCpu = s[2];
    memory = s[3];
    gpu = s[4];
  }

  /** This node's count of {@code tasks}, to publish: from now on a change copies the pods first. */
  CountedNodes.Count count(List<TaskInfo> tasks) {
    owned = false;
    return new CountedNodes.Count(
        tasks, pods, new long[] {nonZeroMilliCpu, nonZeroMemory, milliCpu, memory, gpu});
  }

  void add(Placed p) {
    own();
    pods.put(p.task().uid(), p);
    PodRequest r = p.request();
    nonZeroMilliCpu += r.nonZeroMilliCpu();
    nonZeroMemory += r.nonZeroMemory();
    milliCpu += r.milliCpu();
    memory += r.memory();
    gpu += r.gpu();
  }

  void remove(Placed p) {
    if (!pods.containsKey(p.task().uid())) {
      return;
    }
    own();
    pods.remove(p.task().uid());
    PodRequest r = p.request();
    nonZeroMilliCpu -= r.nonZeroMilliCpu();
    nonZeroMemory -= r.nonZeroMemory();
    milliCpu -= r.milliCpu();
    memory -= r.memory();
    gpu -= r.gpu();
  }

  private void own() {
    if (!owned) {
      pods = new LinkedHashMap<>(pods);
      owned = true;
    }
  }
}
