package dev.caldera.testkit;

import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.Node;
import dev.caldera.api.resource.Resource;
import java.util.ArrayList;
import java.util.List;

/**
 * A node whose accounting follows the tasks placed on it with {@link FakeTask#on}, computed on
 * every call as Volcano's {@code AddTask} would: Releasing tasks occupy idle and count as
 * releasing, Pipelined tasks only count as pipelined, Succeeded and Failed tasks are not on the
 * node, and every other status occupies idle.
 */
public final class FakeNode extends AbstractNodeBuilder<FakeNode> implements NodeInfo {

  private final List<FakeTask> placed = new ArrayList<>();

  /** A node outside any session; {@link FakeSession#addNode} makes one inside. */
  public FakeNode(String name) {
    super(name);
  }

  @Override
  protected FakeNode self() {
    return this;
  }

  void place(FakeTask task) {
    placed.add(task);
  }

  void unplace(FakeTask task) {
    placed.remove(task);
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
  public String toString() {
    return "FakeNode[" + nodeName() + "]";
  }
}
