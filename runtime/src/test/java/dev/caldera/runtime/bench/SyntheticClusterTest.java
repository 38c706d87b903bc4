package dev.caldera.runtime.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.Queue;
import dev.caldera.api.resource.Quantity;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.SessionResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SyntheticClusterTest {

  private static SessionResult result(
      List<SessionResult.Bind> binds,
      List<SessionResult.Eviction> evictions,
      Map<String, SessionResult.PodGroupStatus> podGroups,
      Map<String, Map<String, Quantity>> queueAllocated) {
    return new SessionResult(
        "uid",
        binds,
        evictions,
        List.of(),
        podGroups,
        queueAllocated,
        Map.of(),
        List.of(),
        new SessionResult.SessionStats(0, 0, 0, 0));
  }

  @Test
  void generate_buildsNodesWithTheWorkloadsCapacityAndZones() {
    ClusterSnapshot s = SyntheticCluster.generate(6, 20, 3, 5).snapshot();

    assertThat(s.nodes()).hasSize(6);
    assertThat(s.nodes().get(0).name()).isEqualTo("node-00000");
    assertThat(s.nodes().get(5).name()).isEqualTo("node-00005");
    assertThat(s.nodes().get(5).metadata().labels())
        .containsEntry("topology.kubernetes.io/zone", "zone-1");
    assertThat(s.nodes().get(2).metadata().labels())
        .containsEntry("topology.kubernetes.io/zone", "zone-2");
    assertThat(s.nodes().get(0).allocatable())
        .containsEntry("cpu", Quantity.parse("32"))
        .containsEntry("memory", Quantity.parse("128Gi"))
        .containsEntry("pods", Quantity.parse("110"));
    assertThat(s.nodes().get(0).taints()).isEmpty();
  }

  @Test
  void generate_buildsOpenQueuesOfWeightOne() {
    ClusterSnapshot s = SyntheticCluster.generate(1, 10, 12, 10).snapshot();

    assertThat(s.queues()).extracting(Queue::name).startsWith("queue-00", "queue-01").hasSize(12);
    assertThat(s.queues().get(11).name()).isEqualTo("queue-11");
    assertThat(s.queues())
        .allSatisfy(
            q -> {
              assertThat(q.weight()).isEqualTo(1);
              assertThat(q.state()).isEqualTo("Open");
              assertThat(q.capability()).isNull();
              assertThat(q.deserved()).isNull();
              assertThat(q.guarantee()).isNull();
            });
  }

  @Test
  void generate_buildsInqueueGangJobsRoundRobinOverQueues() {
    ClusterSnapshot s = SyntheticCluster.generate(2, 20, 3, 5).snapshot();

    assertThat(s.podGroups()).hasSize(4);
    PodGroup job3 = s.podGroups().get(3);
    assertThat(job3.key()).isEqualTo("bench/job-3");
    assertThat(job3.queue()).isEqualTo("queue-00");
    assertThat(s.podGroups().get(2).queue()).isEqualTo("queue-02");
    assertThat(job3.minMember()).isEqualTo(5);
    assertThat(job3.phase()).isEqualTo("Inqueue");
    assertThat(job3.metadata().creationTimestamp())
        .isEqualTo(SyntheticCluster.BASE_TIME.plusSeconds(3));
  }

  @Test
  void generate_buildsPendingPodsOfOneCpuAndTwoGi() {
    ClusterSnapshot s = SyntheticCluster.generate(2, 20, 3, 5).snapshot();

    assertThat(s.pods()).hasSize(20);
    Pod p = s.pods().get(7);
    assertThat(p.key()).isEqualTo("bench/job-1-2");
    assertThat(p.schedulerName()).isEqualTo("volcano");
    assertThat(p.metadata().annotations()).containsEntry("scheduling.k8s.io/group-name", "job-1");
    assertThat(p.nodeName()).isEmpty();
    assertThat(p.phase()).isEqualTo("Pending");
    assertThat(p.priorityClassName()).isEmpty();
    assertThat(p.containers()).hasSize(1);
    assertThat(p.containers().get(0).requests())
        .isEqualTo(Map.of("cpu", Quantity.parse("1"), "memory", Quantity.parse("2Gi")));
  }

  @Test
  void generate_rejectsPodsThatAreNotWholeJobs() {
    assertThatThrownBy(() -> SyntheticCluster.generate(1, 15, 1, 10))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("multiple");
  }

  @Test
  void generate_rejectsZeroNodesOrQueues() {
    assertThatThrownBy(() -> SyntheticCluster.generate(0, 10, 1, 10))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SyntheticCluster.generate(1, 10, 0, 10))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void generate_isDeterministic() {
    assertThat(SyntheticCluster.generate(5, 30, 2, 3).snapshot().pods())
        .isEqualTo(SyntheticCluster.generate(5, 30, 2, 3).snapshot().pods());
  }

  @Test
  void apply_placesBoundPodsAsRunning() {
    SyntheticCluster c = SyntheticCluster.generate(2, 4, 1, 2);

    c.apply(
        result(
            List.of(new SessionResult.Bind("bench/job-1-0", "node-00001")),
            List.of(),
            Map.of(),
            Map.of()));

    Pod p = c.snapshot().pods().get(2);
    assertThat(p.key()).isEqualTo("bench/job-1-0");
    assertThat(p.nodeName()).isEqualTo("node-00001");
    assertThat(p.phase()).isEqualTo("Running");
    assertThat(c.snapshot().pods().get(3).nodeName()).isEmpty();
  }

  @Test
  void apply_removesEvictedPods() {
    SyntheticCluster c = SyntheticCluster.generate(2, 4, 1, 2);

    c.apply(
        result(
            List.of(),
            List.of(new SessionResult.Eviction("bench/job-0-1", "reclaim", "")),
            Map.of(),
            Map.of()));

    assertThat(c.snapshot().pods())
        .extracting(Pod::key)
        .containsExactly("bench/job-0-0", "bench/job-1-0", "bench/job-1-1");
  }

  /** A session result that writes one pod group's status and one queue's allocation. */
  private static SessionResult statusWrites(
      String podGroup,
      SessionResult.PodGroupStatus status,
      String queue,
      Map<String, Quantity> allocated) {
    return result(List.of(), List.of(), Map.of(podGroup, status), Map.of(queue, allocated));
  }

  @Test
  void apply_writesPodGroupPhaseAndQueueAllocated() {
    SyntheticCluster c = SyntheticCluster.generate(2, 4, 1, 2);
    Map<String, Quantity> allocated = Map.of("cpu", Quantity.parse("2"));

    c.apply(
        statusWrites(
            "bench/job-1",
            new SessionResult.PodGroupStatus("Running", 2, 0, 0, List.of(), true),
            "queue-00",
            allocated));

    ClusterSnapshot s = c.snapshot();
    assertThat(s.podGroups().get(1).phase()).isEqualTo("Running");
    assertThat(s.podGroups().get(0).phase()).isEqualTo("Inqueue");
    assertThat(s.queues().get(0).allocated()).isEqualTo(allocated);
  }

  @Test
  void apply_keepsTheObjectsAWriteDoesNotChange() {
    SyntheticCluster c = SyntheticCluster.generate(2, 4, 1, 2);
    ClusterSnapshot before = c.snapshot();
    PodGroup job1 = before.podGroups().get(1);

    c.apply(
        statusWrites(
            "bench/job-1",
            new SessionResult.PodGroupStatus(job1.phase(), 0, 0, 0, job1.conditions(), false),
            "queue-00",
            before.queues().get(0).allocated()));

    ClusterSnapshot after = c.snapshot();
    assertThat(after.podGroups().get(1)).isSameAs(job1);
    assertThat(after.queues().get(0)).isSameAs(before.queues().get(0));
  }

  @Test
  void copy_isIndependentOfTheOriginal() {
    SyntheticCluster c = SyntheticCluster.generate(2, 4, 1, 2);
    SyntheticCluster copy = c.copy();

    copy.apply(
        result(
            List.of(new SessionResult.Bind("bench/job-0-0", "node-00000")),
            List.of(),
            Map.of(),
            Map.of()));

    assertThat(c.snapshot().pods().get(0).nodeName()).isEmpty();
    assertThat(copy.snapshot().pods().get(0).nodeName()).isEqualTo("node-00000");
  }
}
