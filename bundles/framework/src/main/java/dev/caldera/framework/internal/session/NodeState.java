package dev.caldera.framework.internal.session;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.Node;
import dev.caldera.api.resource.Resource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A node's accounting in a session ({@code api/node_info.go}). */
final class NodeState implements NodeInfo {

  private final Node node;
  private final int index;
  private final NodeChangeLog changes;
  private final Resource allocatable;
  private final Resource capacity;
  private final Resource idle;
  private final Resource used;
  private final Resource releasing;
  private final Resource pipelined;
  private final Map<String, TaskState> tasks = new LinkedHashMap<>();
  private List<TaskInfo> taskView = List.of();
  private boolean taskViewStale;

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
    if (tasks.containsKey(task.key())) {
      return;
    }
    Resource req = task.resreq();
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
    tasks.put(task.key(), task);
    taskViewStale = true;
    changes.changed(index);
  }

  /** Removes a task, reversing what {@link #addTask} did for its current status. */
  void removeTask(TaskState task) {
    if (tasks.remove(task.key()) == null) {
      return;
    }
    Resource req = task.resreq();
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
    changes.changed(index);
  }

  /** {@code UpdateTask}: removes the task under its old status and adds it under the new one. */
  void updateTask(TaskState task, TaskStatus oldStatus, TaskStatus newStatus) {
    task.status = oldStatus;
    removeTask(task);
    task.status = newStatus;
    addTask(task);
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
  public Resource allocatable() {
    return allocatable;
  }

  @Override
  public Resource capacity() {
    return capacity;
  }

  @Override
  public Resource idle() {
    return idle;
  }

  @Override
  public Resource used() {
    return used;
  }

  @Override
  public Resource releasing() {
    return releasing;
  }

  @Override
  public Resource pipelined() {
    return pipelined;
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
  public String toString() {
    return node.name();
  }
}
