package dev.caldera.plugins.nodeorder;

import dev.caldera.api.Session;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.Pod;
import dev.caldera.api.placement.SessionTopology;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The session's nodes as kube-scheduler's scorers see them in Volcano ({@code ssn.NodeMap}): every
 * task on a node in the snapshot counts (Releasing ones included), tasks allocated or pipelined in
 * the session are added and evicted ones removed at once, as the predicates plugin's event handler
 * keeps that map. This is neither {@link NodeInfo#used()} (which keeps evicted tasks and leaves out
 * pipelined ones) nor {@link NodeInfo#tasks()} (which keeps evicted tasks as Releasing), so the
 * plugin follows the allocate/deallocate events itself for the resource figures; the bookkeeping is
 * by task UID, so it does not depend on the task's node name at deallocation. The inter-pod
 * affinity and spread counts are not kept here: they are the session's shared {@link
 * Session#topology()}, which the framework keeps up to date.
 *
 * <p>Mutations, batch scoring and the first count of the pods synchronise on this object; node
 * order functions only read what the constructor built. Batch scoring calls {@link #countPods}
 * before it reads a node's figures.
 */
final class ClusterState implements EventHandler {

  private final List<NodeState> nodes = new ArrayList<>();
  private final Map<String, NodeState> byName = new HashMap<>();
  private final Map<String, Integer> positions = new HashMap<>();
  private final boolean anyPreferNoSchedule;
  private final Map<String, NodeState.Placed> placed = new HashMap<>();
  private final Map<String, PodRequest> requests = new HashMap<>();
  private final PodRequests.Generation podRequests;
  private final boolean anyImages;
  private final Session session;
  private boolean allPlaced;

  /**
   * The session's nodes, with the requests of pods the last session read taken from {@code memo}.
   */
  ClusterState(Session session, PodRequests memo) {
    this.session = session;
    this.podRequests = memo.next();
    List<NodeInfo> infos = session.nodes();
    List<Node> models = new ArrayList<>(infos.size());
    for (NodeInfo info : infos) {
      models.add(info.node());
    }
    Map<String, Integer> imageCounts = ImageScores.nodeCounts(models);
    boolean images = false;
    for (int i = 0; i < models.size(); i++) {
      Node node = models.get(i);
      NodeState state =
          new NodeState(infos.get(i), ImageScores.of(node, imageCounts, models.size()));
      images |= state.images != null;
      positions.putIfAbsent(state.name, nodes.size());
      nodes.add(state);
      byName.putIfAbsent(state.name, state);
    }
    this.anyImages = images;
    boolean tainted = false;
    for (NodeState node : nodes) {
      tainted |= node.preferNoSchedule;
    }
    this.anyPreferNoSchedule = tainted;
  }

  /**
   * Counts the pods on the nodes, on first need: most sessions of an event-driven scheduler place
   * nothing (a gang still arriving, nothing pending), and counting every bound pod is the plugin's
   * whole cost in them. Equivalent to counting at session open, because every change to the
   * session's nodes after it comes with an allocate or deallocate event, and each event counts
   * first; an event whose change the nodes already show is then a no-op.
   */
  synchronized void countPods() {
    if (allPlaced) {
      return;
    }
    allPlaced = true;
    for (NodeState node : nodes) {
      for (TaskInfo task : node.info.tasks()) {
        place(task, node);
      }
    }
    podRequests.publish();
  }

  @Override
  public synchronized Status allocated(TaskInfo task) {
    countPods();
    NodeState node = byName.get(task.nodeName());
    if (node == null) {
      return Status.OK;
    }
    NodeState.Placed previous = placed.get(task.uid());
    if (previous != null) {
      if (previous.node() == node) {
        return Status.OK;
      }
      unplace(previous);
    }
    place(task, node);
    return Status.OK;
  }

  @Override
  public synchronized void deallocated(TaskInfo task) {
    countPods();
    NodeState.Placed previous = placed.get(task.uid());
    if (previous != null) {
      unplace(previous);
    }
  }

  private void place(TaskInfo task, NodeState node) {
    if (placed.containsKey(task.uid())) {
      // Listed on two nodes of the snapshot: the first one counts.
      return;
    }
    Pod pod = task.pod();
    NodeState.Placed p = new NodeState.Placed(task, pod, request(task, pod), node);
    placed.put(task.uid(), p);
    node.add(p);
  }

  private void unplace(NodeState.Placed p) {
    placed.remove(p.task().uid());
    p.node().remove(p);
  }

  /** The task's requests, computed once per session. */
  PodRequest request(TaskInfo task, Pod pod) {
    return requests.computeIfAbsent(task.uid(), uid -> podRequests.of(pod));
  }

  /** The position of a session node in {@link #nodes()}, or -1 if the session does not list it. */
  int indexOf(NodeInfo info) {
    int index = info.index();
    if (index >= 0 && index < nodes.size() && nodes.get(index).name.equals(info.name())) {
      return index;
    }
    NodeState state = byName.get(info.name());
    return state == null ? -1 : positions.get(state.name);
  }

  /** The node at a position of {@link #nodes()}. */
  NodeState nodeAt(int index) {
    return nodes.get(index);
  }

  /** Whether any node has a PreferNoSchedule taint (else TaintToleration scores 100 everywhere). */
  boolean anyPreferNoSchedule() {
    return anyPreferNoSchedule;
  }

  /** The image scores of a node by name, or null; safe to call concurrently. */
  ImageScores images(String nodeName) {
    NodeState node = byName.get(nodeName);
    return node == null ? null : node.images;
  }

  /** Whether any session node lists images. */
  boolean anyImages() {
    return anyImages;
  }

  /** Every session node, in session order. */
  List<NodeState> nodes() {
    countPods();
    return Collections.unmodifiableList(nodes);
  }

  /** The session's shared topology counts, which the framework keeps up to date. */
  SessionTopology topology() {
    return session.topology();
  }
}
