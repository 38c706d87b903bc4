package dev.caldera.framework.internal.session;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.Node;
import dev.caldera.api.placement.PodPlacement;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.support.placement.TopologyKeeper;
import dev.caldera.support.resource.Resource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A node's accounting in a session ({@code api/node_info.go}), and the pods counted on it for
 * inter-pod affinity and topology spread: its tasks less those evicted in this session, with the
 * lists of those that have (anti-)affinity terms. Every change to the counted pods is told to the
 * session's {@link TopologyKeeper}.
 */
final class NodeState implements NodeInfo {

  private final Node node;
  private int index;
  private NodeChangeLog changes;
  private final Resource allocatable;
  private final Resource capacity;
  private final Resource idle;
  private final Resource used;
  private final Resource releasing;
  private final Resource pipelined;
  private final Map<String, TaskState> tasks = new LinkedHashMap<>();
  private List<TaskInfo> taskView = List.of();
  private boolean taskViewStale;

  /** Tasks evicted in this session (still on the node as Releasing, no longer counted). */
  private final Set<String> evicted = new HashSet<>();

  private final Map<String, TaskState> withAffinity = new LinkedHashMap<>();
  private final Map<String, TaskState> withRequiredAntiAffinity = new LinkedHashMap<>();
  private List<TaskInfo> podView = List.of();
  private List<TaskInfo> withAffinityView = List.of();
  private List<TaskInfo> withRequiredAntiAffinityView = List.of();
  private boolean podViewsStale;

  /** Told of each change to the counted pods once the session has opened; null before. */
  private TopologyKeeper topology;

  /** Whether the session changed the node's tasks after it opened ({@link CarriedStates}). */
  private boolean touched;

  NodeState(Node node, int index, NodeChangeLog changes) {
    this.node = node;
    this.index = index;
    this.changes = changes;
    this.allocatable = Resource.fromList(node.allocatable());
    this.capacity =
        Resource.fromList(node.capacity().isEmpty() ? node.allocatable() : node.capacity());
    this.idle = allocatable.copy();
    this.used = Resource.empty();
    this.releasing = Resource.empty();
    this.pipelined = Resource.empty();
  }

  @Override
  public int index() {
    return index;
  }

  /** Adds a task with its current status; the task's node must be this one. */
  void addTask(TaskState task) {
    if (tasks.putIfAbsent(task.key(), task) != null) {
      return;
    }
    Resource req = task.request();
    switch (task.status) {
      case RELEASING -> {
        releasing.add(req);
        idle.sub(req);
        used.add(req);
      }
      case PIPELINED -> pipelined.add(req);
      default -> {
        idle.sub(req);
        used.add(req);
      }
    }
    taskViewStale = true;
    touched = true;
    changes.changed(index);
    count(task);
  }

  /** Removes a task, reversing what {@link #addTask} did for its current status. */
  void removeTask(TaskState task) {
    if (tasks.remove(task.key()) == null) {
      return;
    }
    if (!evicted.remove(task.key())) {
      uncount(task);
    }
    Resource req = task.request();
    switch (task.status) {
      case RELEASING -> {
        releasing.sub(req);
        idle.add(req);
        used.sub(req);
      }
      case PIPELINED -> pipelined.sub(req);
      default -> {
        idle.add(req);
        used.sub(req);
      }
    }
    taskViewStale = true;
    touched = true;
    changes.changed(index);
  }

  /**
   * {@code UpdateTask}: removes the task under its old status and adds it under the new one;
   * whether it is counted does not change.
   */
  void updateTask(TaskState task, TaskStatus oldStatus, TaskStatus newStatus) {
    boolean wasEvicted = evicted.contains(task.key());
    TopologyKeeper keeper = topology;
    topology = null;
    task.setStatus(oldStatus);
    removeTask(task);
    task.setStatus(newStatus);
    addTask(task);
    if (wasEvicted) {
      evicted.add(task.key());
      uncount(task);
    }
    topology = keeper;
  }

  /** The task, evicted in this session, no longer counts (it stays on the node as Releasing). */
  void evicted(TaskState task) {
    if (tasks.containsKey(task.key()) && evicted.add(task.key())) {
      touched = true;
      uncount(task);
      changes.changed(index);
    }
  }

  /** Undoes {@link #evicted}: the task counts again. */
  void unevicted(TaskState task) {
    if (evicted.remove(task.key()) && tasks.containsKey(task.key())) {
      touched = true;
      count(task);
      changes.changed(index);
    }
  }

  /** Ends the node's open: what changes from here on keeps it from the next session. */
  void opened() {
    touched = false;
  }

  boolean touched() {
    return touched;
  }

  /**
   * Opens the node, untouched in the last session, for the next one, at its place in that one's
   * node list and with its change log.
   */
  void reopen(int index, NodeChangeLog changes) {
    this.index = index;
    this.changes = changes;
    this.topology = null;
  }

  /** Tells {@code keeper} of every later change to the counted pods. */
  void topology(TopologyKeeper keeper) {
    this.topology = keeper;
  }

  private void count(TaskState task) {
    // Most nodes have no evicted task: no need to hash the key (a session counts every pod).
    if (!evicted.isEmpty() && evicted.contains(task.key())) {
      return;
    }
    if (PodPlacement.hasPodAffinityTerms(task.pod())) {
      withAffinity.put(task.key(), task);
      if (PodPlacement.hasRequiredAntiAffinity(task.pod())) {
        withRequiredAntiAffinity.put(task.key(), task);
      }
    }
    podViewsStale = true;
    if (topology != null) {
      topology.podAdded(task, this);
    }
  }

  private void uncount(TaskState task) {
    withAffinity.remove(task.key());
    withRequiredAntiAffinity.remove(task.key());
    podViewsStale = true;
    if (topology != null) {
      topology.podRemoved(task, this);
    }
  }

  @Override
  public String name() {
    return node.name();
  }

  @Override
  public Node node() {
    return node;
  }

  @Override
  public ResourceView allocatable() {
    return allocatable.view();
  }

  @Override
  public ResourceView capacity() {
    return capacity.view();
  }

  @Override
  public ResourceView idle() {
    return idle.view();
  }

  @Override
  public ResourceView used() {
    return used.view();
  }

  @Override
  public ResourceView releasing() {
    return releasing.view();
  }

  @Override
  public ResourceView pipelined() {
    return pipelined.view();
  }

  @Override
  public Resource futureIdle() {
    return idle.copy().add(releasing).sub(pipelined);
  }

  @Override
  public List<TaskInfo> tasks() {
    if (taskViewStale) {
      taskView = Collections.unmodifiableList(new ArrayList<>(tasks.values()));
      taskViewStale = false;
    }
    return taskView;
  }

  @Override
  public int taskCount() {
    return tasks.size();
  }

  @Override
  public List<TaskInfo> pods() {
    refreshPodViews();
    return podView;
  }

  @Override
  public List<TaskInfo> podsWithAffinity() {
    refreshPodViews();
    return withAffinityView;
  }

  @Override
  public List<TaskInfo> podsWithRequiredAntiAffinity() {
    refreshPodViews();
    return withRequiredAntiAffinityView;
  }

  private void refreshPodViews() {
    if (!podViewsStale) {
      return;
    }
    List<TaskInfo> pods;
    if (evicted.isEmpty()) {
      pods = tasks();
    } else {
      List<TaskInfo> counted = new ArrayList<>(tasks.size());
      for (TaskState t : tasks.values()) {
        if (!evicted.contains(t.key())) {
          counted.add(t);
        }
      }
      pods = Collections.unmodifiableList(counted);
    }
    podView = pods;
    withAffinityView = List.copyOf(withAffinity.values());
    withRequiredAntiAffinityView = List.copyOf(withRequiredAntiAffinity.values());
    podViewsStale = false;
  }

  @Override
  public String toString() {
    return node.name();
  }
}
