package dev.caldera.testkit;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.Node;
import dev.caldera.support.resource.Resource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A node whose accounting follows the tasks placed on it with {@link FakeTask#on}, computed on
 * every call as Volcano's {@code AddTask} would: Releasing tasks occupy idle and count as
 * releasing, Pipelined tasks only count as pipelined, Succeeded and Failed tasks are not on the
 * node, and every other status occupies idle.
 *
 * <p>Its {@link #pods()} are its tasks less those {@link FakeSession#evict evicted} through the
 * session; a node of a session tells the session's {@link FakeSession#topology()} when a task is
 * placed on it or taken off ({@link FakeTask#on}), as the framework's node does.
 */
public final class FakeNode extends AbstractNodeBuilder<FakeNode> implements NodeInfo {

  private final List<FakeTask> placed = new ArrayList<>();
  private final Set<FakeTask> evicted = new HashSet<>();
  private FakeSession session;

  /** A node outside any session; {@link FakeSession#addNode} makes one inside. */
  public FakeNode(String name) {
    super(name);
  }

  @Override
  protected FakeNode self() {
    return this;
  }

  /** The session this node belongs to. */
  FakeNode in(FakeSession session) {
    this.session = session;
    return this;
  }

  void place(FakeTask task) {
    placed.add(task);
    if (session != null && counts(task)) {
      session.podAdded(task, this);
    }
  }

  void unplace(FakeTask task) {
    boolean counted = counts(task);
    placed.remove(task);
    evicted.remove(task);
    if (session != null && counted) {
      session.podRemoved(task, this);
    }
  }

  /** Marks a placed task evicted (true) or not (false); answers whether that changed anything. */
  boolean evicted(FakeTask task, boolean evict) {
    if (!placed.contains(task) || task.status().isCompleted()) {
      return false;
    }
    return evict ? evicted.add(task) : evicted.remove(task);
  }

  private boolean counts(FakeTask task) {
    return placed.contains(task) && !task.status().isCompleted() && !evicted.contains(task);
  }

  @Override
  public String name() {
    return nodeName();
  }

  @Override
  public Node node() {
    return buildNode();
  }

  @Override
  public Resource allocatable() {
    return Resource.fromList(allocatableList());
  }

  @Override
  public Resource capacity() {
    return Resource.fromList(capacityList());
  }

  @Override
  public Resource idle() {
    return allocatable().sub(used());
  }

  @Override
  public Resource used() {
    Resource sum = Resource.empty();
    for (TaskInfo t : tasks()) {
      if (t.status() != TaskStatus.PIPELINED) {
        sum.add(t.resreq());
      }
    }
    return sum;
  }

  @Override
  public Resource releasing() {
    return sumOf(TaskStatus.RELEASING);
  }

  @Override
  public Resource pipelined() {
    return sumOf(TaskStatus.PIPELINED);
  }

  @Override
  public Resource futureIdle() {
    return idle().add(releasing()).sub(pipelined());
  }

  private Resource sumOf(TaskStatus status) {
    Resource sum = Resource.empty();
    for (TaskInfo t : tasks()) {
      if (t.status() == status) {
        sum.add(t.resreq());
      }
    }
    return sum;
  }

  @Override
  public List<TaskInfo> tasks() {
    List<TaskInfo> out = new ArrayList<>();
    for (FakeTask t : placed) {
      if (!t.status().isCompleted()) {
        out.add(t);
      }
    }
    return out;
  }

  @Override
  public int taskCount() {
    return tasks().size();
  }

  @Override
  public List<TaskInfo> pods() {
    List<TaskInfo> out = new ArrayList<>();
    for (TaskInfo t : tasks()) {
      if (!evicted.contains(t)) {
        out.add(t);
      }
    }
    return out;
  }

  @Override
  public String toString() {
    return "FakeNode[" + nodeName() + "]";
  }
}
