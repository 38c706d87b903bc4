package dev.caldera.sim;

import static dev.caldera.testkit.NodeBuilder.node;
import static dev.caldera.testkit.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.model.Node;
import dev.caldera.api.model.NodeMetrics;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodCondition;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.PriorityClass;
import dev.caldera.api.model.Queue;
import dev.caldera.api.resource.Quantity;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.SessionResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EmbeddedClusterTest {

  private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

  private final Pod running =
      pod("ns/running")
          .annotation("scheduling.k8s.io/group-name", "pg1")
          .specNodeName("n1")
          .podPhase("Running")
          .requests("cpu", "1")
          .build();
  private final Pod pending =
      pod("ns/pending").annotation("scheduling.k8s.io/group-name", "pg2").build();
  private final Pod otherPending = pod("ns/other").schedulerName("default-scheduler").build();
  private final Pod otherBound =
      pod("ns/other-bound")
          .schedulerName("default-scheduler")
          .specNodeName("n2")
          .podPhase("Running")
          .build();
  private final Pod done =
      pod("ns/done")
          .annotation("scheduling.k8s.io/group-name", "pg1")
          .specNodeName("n1")
          .podPhase("Succeeded")
          .build();

  private EmbeddedCluster cluster() {
    List<Node> nodes =
        List.of(
            node("n2").allocatable("cpu", "2").build(), node("n1").allocatable("cpu", "4").build());
    ClusterState state =
        new ClusterState(
            nodes,
            List.of(running, pending, otherPending, otherBound, done),
            List.of(group("ns/pg1", "Running"), group("ns/pg2", "Inqueue")),
            List.of(queue("q1")),
            List.of(new PriorityClass("high", 100, false)),
            null,
            null,
            null);
    return new EmbeddedCluster(state, Map.of("n1", new NodeMetrics(10, 20, NOW)));
  }

  @Test
  void snapshot_nodesInOrder_podsOfTheSchedulerAndPodsOnNodes() {
    ClusterSnapshot s = cluster().snapshot(NOW);

    assertThat(s.nodes()).extracting(Node::name).containsExactly("n2", "n1");
    assertThat(s.pods())
        .extracting(Pod::key)
        .containsExactly("ns/running", "ns/pending", "ns/other-bound", "ns/done");
    assertThat(s.podGroups()).extracting(PodGroup::key).containsExactly("ns/pg1", "ns/pg2");
    assertThat(s.queues()).extracting(Queue::name).containsExactly("q1");
    assertThat(s.info().priorityClasses()).extracting(PriorityClass::name).containsExactly("high");
    assertThat(s.info().nodeMetrics()).containsKey("n1");
    assertThat(s.now()).isEqualTo(NOW);
  }

  private static Queue queueOf(EmbeddedCluster c, String name) {
    return c.state().queues().stream().filter(q -> q.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void queueCommands_closeDrainOpen_setTheStateAndTheDrainMark() {
    EmbeddedCluster c = cluster();
    var drain = dev.caldera.framework.loop.QueueLifecycle.Command.DRAIN;
    var open = dev.caldera.framework.loop.QueueLifecycle.Command.OPEN;
    var close = dev.caldera.framework.loop.QueueLifecycle.Command.CLOSE;

    assertThat(c.apply("q1", close).state()).isEqualTo("Closing");
    assertThat(queueOf(c, "q1").metadata().annotations()).isEmpty();
    assertThat(c.apply("q1", drain).message())
        .isEqualTo("queue q1 is Closing; what runs of it is being evicted");
    assertThat(queueOf(c, "q1").metadata().annotations())
        .containsEntry("caldera.dev/drain", "true");
    c.apply(
        new SessionResult(
            "s",
            List.of(),
            List.of(),
            List.of(),
            Map.of(),
            Map.of(),
            Map.of(),
            List.of(),
            null,
            List.of(),
            Map.of(),
            Map.of("q1", "Closed"),
            Map.of()));
    assertThat(queueOf(c, "q1").state()).isEqualTo("Closed");
    assertThat(c.apply("q1", close).state()).as("a Closed queue stays Closed").isEqualTo("Closed");
    assertThat(c.apply("q1", open).state()).isEqualTo("Open");
    assertThat(queueOf(c, "q1").metadata().annotations()).isEmpty();
    assertThat(c.apply("nosuch", open).result())
        .isEqualTo(dev.caldera.framework.loop.QueueLifecycle.Result.NOT_FOUND);
  }

  @Test
  void queueCommands_closingAParentClosesItsChildren_rootIsNeverClosed() {
    var close = dev.caldera.framework.loop.QueueLifecycle.Command.CLOSE;
    var open = dev.caldera.framework.loop.QueueLifecycle.Command.OPEN;
    var refused = dev.caldera.framework.loop.QueueLifecycle.Result.REFUSED;
    EmbeddedCluster c =
        new EmbeddedCluster(
            new ClusterState(
                List.of(node("n1").allocatable("cpu", "4").build()),
                List.of(),
                List.of(),
                List.of(queue("root"), child("team", "root"), child("train", "team")),
                List.of(),
                null,
                null,
                null),
            Map.of());

    assertThat(c.apply("root", close).result()).isEqualTo(refused);
    assertThat(queueOf(c, "root").state()).isEqualTo("Open");
    assertThat(c.apply("team", close).message())
        .isEqualTo("queue team is Closing; so is the queue under it: train");
    assertThat(queueOf(c, "train").state()).isEqualTo("Closing");
    var child = c.apply("train", open);
    assertThat(child.result()).isEqualTo(refused);
    assertThat(child.message())
        .isEqualTo(
            "queue train cannot be opened while its parent queue team is Closing: open team"
                + " first");
    assertThat(c.apply("team", open).state()).isEqualTo("Open");
    assertThat(c.apply("train", open).state()).isEqualTo("Open");
  }

  private static Queue child(String name, String parent) {
    return new Queue(
        ObjectMeta.named("", name), 1, null, null, null, null, parent, 0, null, null, null, null);
  }

  @Test
  void apply_bind_podRunsOnNodeScheduledNow() {
    EmbeddedCluster c = cluster();
    c.snapshot(NOW);

    c.apply(result(r -> r.binds.add(new SessionResult.Bind("ns/pending", "n1"))));

    Pod p = find(c.state(), "ns/pending");
    assertThat(p.nodeName()).isEqualTo("n1");
    assertThat(p.phase()).isEqualTo("Running");
    assertThat(p.conditions())
        .containsExactly(new PodCondition("PodScheduled", "True", null, null, NOW));
    assertThat(c.snapshot(NOW).pods()).extracting(Pod::key).contains("ns/pending");
  }

  @Test
  void apply_pipelined_staysPendingUnplacedWithNomination() {
    EmbeddedCluster c = cluster();
    c.snapshot(NOW);
    PodCondition unschedulable =
        new PodCondition("PodScheduled", "False", "Unschedulable", "waiting");

    c.apply(
        result(
            r -> {
              r.pipelined.add(new SessionResult.Pipelined("ns/pending", "n1"));
              r.pods.put("ns/pending", new SessionResult.PodStatusUpdate(unschedulable, "n1"));
            }));

    Pod p = find(c.state(), "ns/pending");
    assertThat(p.nodeName()).isEmpty();
    assertThat(p.phase()).isEqualTo("Pending");
    assertThat(p.nominatedNodeName()).isEqualTo("n1");
    assertThat(p.conditions())
        .containsExactly(
            new PodCondition("PodScheduled", "False", "Unschedulable", "waiting", NOW));
  }

  @Test
  void apply_statusUpdateWithSameStatus_keepsTransitionTime() {
    Instant earlier = NOW.minusSeconds(600);
    Pod p0 =
        pod("ns/p")
            .condition(new PodCondition("PodScheduled", "False", "Unschedulable", "a", earlier))
            .build();
    EmbeddedCluster c =
        new EmbeddedCluster(
            new ClusterState(null, List.of(p0), null, null, null, null, null, null), null);
    c.snapshot(NOW);

    c.apply(
        result(
            r ->
                r.pods.put(
                    "ns/p",
                    new SessionResult.PodStatusUpdate(
                        new PodCondition("PodScheduled", "False", "Unschedulable", "b"), null))));

    Pod p = find(c.state(), "ns/p");
    assertThat(p.conditions().get(0).message()).isEqualTo("b");
    assertThat(p.conditions().get(0).lastTransitionTime()).isEqualTo(earlier);
    assertThat(p.nominatedNodeName()).isEmpty();
  }

  @Test
  void apply_eviction_removesPod() {
    EmbeddedCluster c = cluster();

    c.apply(result(r -> r.evictions.add(new SessionResult.Eviction("ns/running", "reclaim", "x"))));

    assertThat(c.state().pods()).extracting(Pod::key).doesNotContain("ns/running");
    assertThat(c.snapshot(NOW).pods()).extracting(Pod::key).doesNotContain("ns/running");
  }

  @Test
  void snapshot_admitsAPodSubmittedRaw_priorityOfItsClass_implicitGroupKeptForSessionResults() {
    ClusterState state =
        new ClusterState(
            List.of(node("n1").allocatable("cpu", "4").build()),
            List.of(),
            List.of(),
            List.of(),
            List.of(new PriorityClass("high", 100, false)),
            null,
            null,
            null);
    EmbeddedCluster c =
        new EmbeddedCluster(
            state, Map.of(), Map.of(), new EmbeddedCluster.Rules(Map.of("high", "Never"), true));
    c.submit(List.of(pod("ns/late").uid("u1").priorityClassName("high").build()));

    ClusterSnapshot s = c.snapshot(NOW);

    Pod late = s.pods().get(0);
    assertThat(late.priority()).isEqualTo(100);
    assertThat(late.preemptionPolicy()).isEqualTo("Never");
    assertThat(late.metadata().annotations())
        .containsEntry("scheduling.k8s.io/group-name", "podgroup-u1");
    assertThat(s.podGroups()).extracting(PodGroup::key).containsExactly("ns/podgroup-u1");
    assertThat(s.queues()).extracting(Queue::name).containsExactly("default", "root");
    c.apply(
        result(
            r ->
                r.podGroups.put(
                    "ns/podgroup-u1",
                    new SessionResult.PodGroupStatus("Inqueue", 0, 0, 0, List.of(), true))));
    assertThat(c.state().podGroups()).extracting(PodGroup::phase).containsExactly("Inqueue");
    assertThat(c.snapshot(NOW).pods()).containsExactly(late);
  }

  @Test
  void state_beforeAnySnapshot_showsTheObjectsAdmitted() {
    EmbeddedCluster c = cluster();
    c.submit(List.of(pod("ns/solo").uid("u2").build()));

    assertThat(c.state().pods())
        .filteredOn(p -> p.key().equals("ns/solo"))
        .extracting(p -> p.metadata().annotations().get("scheduling.k8s.io/group-name"))
        .containsExactly("podgroup-u2");
    assertThat(c.state().podGroups())
        .extracting(PodGroup::key)
        .containsExactly("ns/pg1", "ns/pg2", "ns/podgroup-u2");
  }

  @Test
  void apply_podGroupStatusAndQueueAllocated_asWritten() {
    EmbeddedCluster c = cluster();
    PodCondition cond = new PodCondition("Unschedulable", "True", "NotEnoughResources", "m");

    c.apply(
        result(
            r -> {
              r.podGroups.put(
                  "ns/pg2",
                  new SessionResult.PodGroupStatus("Pending", 0, 0, 0, List.of(cond), true));
              r.queueAllocated.put("q1", Map.of("cpu", Quantity.parse("3")));
            }));

    ClusterState s = c.state();
    PodGroup pg2 = s.podGroups().get(1);
    assertThat(pg2.phase()).isEqualTo("Pending");
    assertThat(pg2.conditions()).containsExactly(cond);
    assertThat(pg2.queue()).isEqualTo("q1");
    assertThat(s.podGroups().get(0).phase()).isEqualTo("Running");
    assertThat(s.queues().get(0).allocated())
        .containsExactly(Map.entry("cpu", Quantity.parse("3")));
  }

  @Test
  void apply_emptyResult_changesNothing() {
    EmbeddedCluster c = cluster();
    ClusterState before = c.state();

    c.apply(result(r -> {}));

    assertThat(c.state()).isEqualTo(before);
  }

  @Test
  void apply_unknownPod_isABug() {
    EmbeddedCluster c = cluster();

    assertThatThrownBy(
            () -> c.apply(result(r -> r.binds.add(new SessionResult.Bind("ns/ghost", "n1")))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ns/ghost");
  }

  static Pod find(ClusterState s, String key) {
    return s.pods().stream().filter(p -> p.key().equals(key)).findFirst().orElseThrow();
  }

  static PodGroup group(String key, String phase) {
    String[] parts = key.split("/");
    return new PodGroup(
        ObjectMeta.named(parts[0], parts[1]), "q1", 1, null, null, null, phase, null);
  }

  static Queue queue(String name) {
    return new Queue(
        ObjectMeta.named("", name), 1, null, null, null, null, null, 0, null, null, null, null);
  }

  /** A mutable session result for tests. */
  static final class ResultBuilder {
    final List<SessionResult.Bind> binds = new ArrayList<>();
    final List<SessionResult.Eviction> evictions = new ArrayList<>();
    final List<SessionResult.Pipelined> pipelined = new ArrayList<>();
    final Map<String, SessionResult.PodGroupStatus> podGroups = new LinkedHashMap<>();
    final Map<String, Map<String, Quantity>> queueAllocated = new LinkedHashMap<>();
    final Map<String, SessionResult.PodStatusUpdate> pods = new LinkedHashMap<>();
    final List<SessionResult.Event> events = new ArrayList<>();

    SessionResult build() {
      return new SessionResult(
          "uid",
          binds,
          evictions,
          pipelined,
          podGroups,
          queueAllocated,
          pods,
          events,
          new SessionResult.SessionStats(0, 0, 0, 0));
    }
  }

  static SessionResult result(java.util.function.Consumer<ResultBuilder> fill) {
    ResultBuilder b = new ResultBuilder();
    fill.accept(b);
    return b.build();
  }
}
