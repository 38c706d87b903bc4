package dev.caldera.plugins.nodeorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.Session;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.Node;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.testkit.FakeNode;
import dev.caldera.testkit.FakeTask;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A node whose task list is the one the last session counted takes that count; any other node is
 * counted again, and a session's events never change a count another session may take.
 */
class CountedNodesTest {

  private static final long GI = 1024L * 1024 * 1024;

  private final PodRequests requests = new PodRequests();
  private final CountedNodes counted = new CountedNodes();

  /**
   * A node as the framework gives it: {@link #tasks()} is one unchanging list until the node
   * changes, which gives a new list.
   */
  private static final class ListedNode implements NodeInfo {
    private final FakeNode fake;
    private List<TaskInfo> tasks;

    ListedNode(String name) {
      this.fake = new FakeNode(name).allocatable("cpu", "16", "memory", "64Gi", "pods", "110");
      this.tasks = List.of();
    }

    /** Places {@code task} here; the node's list is a new one from now on. */
    ListedNode place(FakeTask task) {
      task.on(fake);
      tasks = List.copyOf(fake.tasks());
      return this;
    }

    @Override
    public String name() {
      return fake.name();
    }

    @Override
    public Node node() {
      return fake.node();
    }

    @Override
    public ResourceView allocatable() {
      return fake.allocatable();
    }

    @Override
    public ResourceView capacity() {
      return fake.capacity();
    }

    @Override
    public ResourceView idle() {
      return fake.idle();
    }

    @Override
    public ResourceView used() {
      return fake.used();
    }

    @Override
    public ResourceView releasing() {
      return fake.releasing();
    }

    @Override
    public ResourceView pipelined() {
      return fake.pipelined();
    }

    @Override
    public ResourceView futureIdle() {
      return fake.futureIdle();
    }

    @Override
    public List<TaskInfo> tasks() {
      return tasks;
    }

    @Override
    public int taskCount() {
      return tasks.size();
    }
  }

  private static Session sessionOf(NodeInfo... nodes) {
    List<NodeInfo> list = List.of(nodes);
    return (Session)
        Proxy.newProxyInstance(
            Session.class.getClassLoader(),
            new Class<?>[] {Session.class},
            (proxy, method, args) -> {
              if (method.getName().equals("nodes")) {
                return list;
              }
              throw new UnsupportedOperationException(method.getName());
            });
  }

  private ClusterState open(NodeInfo... nodes) {
    ClusterState cluster = new ClusterState(sessionOf(nodes), requests, counted);
    cluster.countPods();
    return cluster;
  }

  private static FakeTask task(String key, String cpu, String memory) {
    return new FakeTask(key).requests("cpu", cpu, "memory", memory);
  }

  @Test
  void theSameList_nextSession_takesTheCount() {
    FakeTask a = task("ns/a", "2", "4Gi");
    ListedNode n1 = new ListedNode("n1").place(a).place(task("ns/b", "1", "1Gi"));

    ClusterState first = open(n1);
    ClusterState second = open(n1);

    NodeState taken = second.nodeAt(0);
    assertThat(taken.placed(a.uid())).isSameAs(first.nodeAt(0).placed(a.uid()));
    assertThat(taken.milliCpu).isEqualTo(3000);
    assertThat(taken.memory).isEqualTo(5 * GI);
    assertThat(taken.nonZeroMilliCpu).isEqualTo(3000);
  }

  @Test
  void aNewList_isCountedAgain() {
    FakeTask a = task("ns/a", "2", "4Gi");
    ListedNode n1 = new ListedNode("n1").place(a);
    ClusterState first = open(n1);

    n1.place(task("ns/b", "1", "1Gi"));
    ClusterState second = open(n1);

    NodeState recounted = second.nodeAt(0);
    assertThat(recounted.placed(a.uid())).isNotSameAs(first.nodeAt(0).placed(a.uid()));
    assertThat(recounted.milliCpu).isEqualTo(3000);
    assertThat(recounted.memory).isEqualTo(5 * GI);
  }

  @Test
  void eventsOnATakenCount_changeOnlyThatSession() {
    FakeTask a = task("ns/a", "2", "4Gi");
    ListedNode n1 = new ListedNode("n1").place(a);
    ListedNode n2 = new ListedNode("n2");
    open(n1, n2);

    ClusterState second = open(n1, n2);
    FakeTask arriving = task("ns/c", "4", "8Gi").on(new FakeNode("n1"));
    second.allocated(arriving);
    second.deallocated(a);
    assertThat(second.nodeAt(0).milliCpu).isEqualTo(4000);
    assertThat(second.nodeAt(0).placed(a.uid())).isNull();

    ClusterState third = open(n1, n2);
    assertThat(third.nodeAt(0).milliCpu).isEqualTo(2000);
    assertThat(third.nodeAt(0).placed(a.uid())).isNotNull();
    assertThat(third.nodeAt(0).placed(arriving.uid())).isNull();
  }

  @Test
  void aTaskPlacedByAnEvent_isFoundWithoutItsNodeName() {
    ListedNode n1 = new ListedNode("n1");
    ClusterState cluster = open(n1);
    FakeNode elsewhere = new FakeNode("n1");
    FakeTask t = task("ns/t", "1", "1Gi").on(elsewhere);
    cluster.allocated(t);
    assertThat(cluster.nodeAt(0).milliCpu).isEqualTo(1000);

    t.on(null); // the framework takes the node name off before it tells of the deallocation
    cluster.deallocated(t);

    assertThat(cluster.nodeAt(0).milliCpu).isZero();
    assertThat(cluster.nodeAt(0).placed(t.uid())).isNull();
  }

  @Test
  void aNodeTheLastSessionDidNotHave_isCounted() {
    ListedNode n1 = new ListedNode("n1").place(task("ns/a", "2", "4Gi"));
    open(n1);
    ListedNode n2 = new ListedNode("n2").place(task("ns/b", "1", "2Gi"));

    ClusterState second = open(n1, n2);

    List<Long> cpu = new ArrayList<>();
    for (NodeState n : second.nodes()) {
      cpu.add(n.milliCpu);
    }
    assertThat(cpu).containsExactly(2000L, 1000L);
  }
}
