package dev.caldera.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodCondition;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.Queue;
import dev.caldera.api.resource.Quantity;
import dev.caldera.testkit.NodeBuilder;
import dev.caldera.testkit.PodBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Which changes wake the scheduling loop: work for a session, never the echo of its own writes. */
class ClusterCacheWorkTest {

  private final ClusterCache cache = new ClusterCache(Set.of("volcano"));
  private final AtomicInteger wakes = new AtomicInteger();

  @BeforeEach
  void listen() {
    cache.putNode(NodeBuilder.node("n1").allocatable("cpu", "4").build());
    cache.onWork(wakes::incrementAndGet);
  }

  private static PodBuilder pending(String key) {
    return PodBuilder.pod(key).schedulerName("volcano").requests("cpu", "1");
  }

  private int wakesBy(Runnable change) {
    int before = wakes.get();
    change.run();
    return wakes.get() - before;
  }

  @Test
  void aPendingPodOfOurs_isWork_anotherSchedulersIsNot() {
    assertThat(wakesBy(() -> cache.putPod(pending("ns/p1").build()))).isEqualTo(1);
    assertThat(
            wakesBy(
                () ->
                    cache.putPod(
                        PodBuilder.pod("ns/other").schedulerName("default-scheduler").build())))
        .isZero();
  }

  @Test
  void theEchoOfOurBind_andOfOurCondition_areNotWork() {
    Pod pod = pending("ns/p1").build();
    cache.putPod(pod);
    assertThat(cache.claimBind(pod, "n1").claimed()).isTrue();

    PodCondition unschedulable =
        new PodCondition("PodScheduled", "False", "Unschedulable", "0/1 nodes", Instant.EPOCH);
    assertThat(
            wakesBy(() -> cache.putPod(pod.withStatus("", "Pending", "", List.of(unschedulable)))))
        .isZero();
    assertThat(wakesBy(() -> cache.putPod(pod.withStatus("n1", "Pending", "", List.of()))))
        .isZero();
    assertThat(wakesBy(() -> cache.putPod(pod.withStatus("n1", "Running", "", List.of()))))
        .isZero();
  }

  @Test
  void aPendingPodChangedInWhatItAsks_isWork() {
    cache.putPod(pending("ns/p1").build());
    assertThat(wakesBy(() -> cache.putPod(pending("ns/p1").label("tier", "gold").build())))
        .isEqualTo(1);
  }

  @Test
  void aPodThatFinishesOrIsDeleted_freesItsNode_andIsWork() {
    Pod running = pending("ns/p1").specNodeName("n1").podPhase("Running").build();
    cache.putPod(running);
    assertThat(wakesBy(() -> cache.putPod(running.withStatus("n1", "Succeeded", "", List.of()))))
        .isEqualTo(1);
    assertThat(wakesBy(() -> cache.removePod("ns/p1"))).as("a finished pod deleted").isZero();

    cache.putPod(pending("ns/p2").specNodeName("n1").podPhase("Running").build());
    assertThat(
            wakesBy(
                () ->
                    cache.putPod(
                        pending("ns/p2")
                            .specNodeName("n1")
                            .podPhase("Running")
                            .deleted(Instant.EPOCH)
                            .build())))
        .as("terminating")
        .isEqualTo(1);
    assertThat(wakesBy(() -> cache.removePod("ns/p2"))).as("gone").isEqualTo(1);
  }

  @Test
  void aGangIsWork_whenItsLastMemberArrives_notBefore() {
    cache.putPodGroup(group(3, "Pending"), new int[3]);
    assertThat(wakesBy(() -> cache.putPod(member("ns/p1")))).isZero();
    assertThat(wakesBy(() -> cache.putPod(member("ns/p2")))).isZero();
    assertThat(wakesBy(() -> cache.putPod(member("ns/p3")))).isEqualTo(1);
    assertThat(wakesBy(() -> cache.putPod(member("ns/p4")))).as("beyond minMember").isEqualTo(1);
  }

  @Test
  void aGangIsWork_whenItsGroupArrivesAfterItsMembers() {
    assertThat(wakesBy(() -> cache.putPod(member("ns/p1")))).isZero();
    assertThat(wakesBy(() -> cache.putPodGroup(group(2, "Pending"), new int[3]))).isZero();
    cache.removePodGroup("ns/pg1");
    cache.putPod(member("ns/p2"));

    assertThat(wakesBy(() -> cache.putPodGroup(group(2, "Pending"), new int[3]))).isEqualTo(1);
  }

  @Test
  void aPodGroupsStatus_isNotWork_itsSpecIs() {
    cache.putPod(member("ns/p1"));
    cache.putPod(member("ns/p2"));
    PodGroup pg = group(2, "Pending");
    assertThat(wakesBy(() -> cache.putPodGroup(pg, new int[3]))).isEqualTo(1);
    assertThat(
            wakesBy(
                () -> cache.putPodGroup(pg.withStatus("Inqueue", List.of()), new int[] {1, 0, 0})))
        .isZero();
    assertThat(wakesBy(() -> cache.putPodGroup(group(1, "Inqueue"), new int[3]))).isEqualTo(1);
  }

  private static Pod member(String key) {
    return pending(key).annotation("scheduling.k8s.io/group-name", "pg1").build();
  }

  private static PodGroup group(int minMember, String phase) {
    return new PodGroup(
        ObjectMeta.named("ns", "pg1"), "default", minMember, null, null, null, phase, null);
  }

  @Test
  void aQueuesAllocated_isNotWork_itsStateIs() {
    Queue open = queue("Open", Map.of());
    assertThat(wakesBy(() -> cache.putQueue(open, true, "1"))).isEqualTo(1);
    assertThat(wakesBy(() -> cache.putQueue(queue("Open", Map.of("cpu", Quantity.parse("2"))))))
        .isZero();
    assertThat(wakesBy(() -> cache.putQueue(queue("Closed", Map.of()), true, "3"))).isEqualTo(1);
  }

  @Test
  void aNodeUnchanged_isNotWork_aChangedOrNewOneIs() {
    assertThat(wakesBy(() -> cache.putNode(NodeBuilder.node("n1").allocatable("cpu", "4").build())))
        .isZero();
    assertThat(wakesBy(() -> cache.putNode(NodeBuilder.node("n1").allocatable("cpu", "8").build())))
        .isEqualTo(1);
    assertThat(wakesBy(() -> cache.putNode(NodeBuilder.node("n2").build()))).isEqualTo(1);
  }

  @Test
  void aListDelivered_isWork() {
    cache.listing("pods", true);
    assertThat(wakesBy(() -> cache.listing("pods", false))).isEqualTo(1);
  }

  private static Queue queue(String state, Map<String, Quantity> allocated) {
    return new Queue(
        ObjectMeta.named("", "q1"),
        1,
        null,
        null,
        null,
        true,
        null,
        0,
        null,
        null,
        state,
        allocated);
  }
}
