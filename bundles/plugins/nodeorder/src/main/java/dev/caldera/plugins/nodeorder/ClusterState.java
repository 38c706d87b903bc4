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
 * plugin follows the allocate/deallocate events itself for the resource figures; a task an event
 * placed is found by its UID, so it does not depend on the task's node name at deallocation. The
 * inter-pod affinity and spread counts are not kept here: they are the session's shared {@link
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

  /** The node of each task an event placed, by task UID (counted tasks are on their own node). */
  private final Map<String, NodeState> placedByEvent = new HashMap<>();

  private final Map<String, PodRequest> requests = new HashMap<>();
  private final PodRequests.Generation podRequests;
  private final CountedNodes counted;
  private final boolean anyImages;
  private final Session session;
  private boolean allPlaced;

  /**
   * The session's nodes, with the requests of pods the last session read taken from {@code memo}
   * and the counts of the nodes it did not change from {@code counted}.
   */
  ClusterState(Session session, PodRequests memo, CountedNodes counted) {
    this.session = session;
    this.podRequests = memo.next();
    this.counted = counted;
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
   * first; an event whose change the nodes already show is then a no-op. A node that gives the very
   * task list the last session counted takes that count (see {@link CountedNodes}).
   */
  synchronized void countPods() {
    if (allPlaced) {
      return;
    }
    allPlaced = true;
    Map<String, CountedNodes.Count> last = counted.last();
    Map<String, CountedNodes.Count> counts = new HashMap<>();
    for (NodeState node : nodes) {
      List<TaskInfo> tasks = node.info.tasks();
      CountedNodes.Count had = last.get(node.name);
      if (had != null && had.tasks() == tasks) {
        node.take(had);
        counts.putIfAbsent(node.name, had);
        continue;
      }
      for (TaskInfo task : tasks) {
        if (node.placed(task.uid()) == null) {
          Pod pod = task.pod();
          NodeState.Placed before = had == null ? null : had.pods().get(task.uid());
          PodRequest request =
              before != null && before.pod() == pod ? before.request() : podRequests.of(pod);
          node.add(new NodeState.Placed(task, pod, request));
        }
      }
      counts.putIfAbsent(node.name, node.count(tasks));
    }
    podRequests.publish();
    counted.publish(counts);
  }

  @Override
  public synchronized Status allocated(TaskInfo task) {
    countPods();
    NodeState node = byName.get(task.nodeName());
    if (node == null) {
      return Status.OK;
    }
    NodeState previous = placedOn(task);
    if (previous != node) {
      if (previous != null) {
        previous.remove(previous.placed(task.uid()));
      }
      Pod pod = task.pod();
      node.add(new NodeState.Placed(task, pod, request(task, pod)));
    }
    placedByEvent.put(task.uid(), node);
    return Status.OK;
  }

  @Override
  public synchronized void deallocated(TaskInfo task) {
    countPods();
    NodeState previous = placedOn(task);
    if (previous != null) {
      previous.remove(previous.placed(task.uid()));
    }
    placedByEvent.remove(task.uid());
  }

  /**
   * The node the task is counted on, or null. A counted task is on the node it names (the framework
   * keeps a task on its node); a task an event placed may name none by the time it is deallocated.
   */
  private NodeState placedOn(TaskInfo task) {
    NodeState node = placedByEvent.get(task.uid());
    if (node == null) {
      node = byName.get(task.nodeName());
    }
    return node != null && node.placed(task.uid()) != null ? node : null;
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
