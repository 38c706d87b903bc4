package dev.caldera.framework.internal.session;

import static dev.caldera.testkit.NodeBuilder.node;
import static dev.caldera.testkit.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.info.TaskStatus;
import dev.caldera.api.model.Pod;
import org.junit.jupiter.api.Test;

/** A pod read by one session is not read again by the next while it is the same object. */
class PodDigestsTest {

  private static Pod member(String key) {
    return pod(key)
        .annotation("scheduling.k8s.io/group-name", "gang-1")
        .requests("cpu", "2", "memory", "1Gi")
        .build();
  }

  @Test
  void samePodObject_isReadOnceAcrossSessions() {
    PodDigests digests = new PodDigests();
    Pod p = member("ns/gang-1-0");
    PodDigests.Generation first = digests.next(1);
    PodDigests.Digest read = first.of(p);
    first.publish();

    assertThat(digests.next(1).of(p)).isSameAs(read);
  }

  @Test
  void changedOrEqualCopy_isReadAgain() {
    PodDigests digests = new PodDigests();
    Pod p = member("ns/gang-1-0");
    PodDigests.Generation first = digests.next(1);
    PodDigests.Digest read = first.of(p);
    first.publish();

    Pod copy = member("ns/gang-1-0");
    PodDigests.Digest again = digests.next(1).of(copy);
    assertThat(copy).isEqualTo(p);
    assertThat(again).isNotSameAs(read);
    assertThat(again.facts()).isEqualTo(read.facts());
  }

  @Test
  void podsOfAnUnpublishedGeneration_areForgotten_andOnlyTheLastSessionIsKept() {
    PodDigests digests = new PodDigests();
    Pod p = member("ns/gang-1-0");
    PodDigests.Digest read = digests.next(1).of(p);

    PodDigests.Generation second = digests.next(1);
    assertThat(second.of(p)).isNotSameAs(read);
    second.publish();
    PodDigests.Generation withoutP = digests.next(1);
    withoutP.of(member("ns/gang-1-1"));
    withoutP.publish();

    assertThat(digests.next(1).of(p)).isNotSameAs(read);
  }

  @Test
  void digest_readsFactsRequestAndIndex_andOutOfBoundsPodOnlyItsProblem() {
    PodDigests.Digest d = PodDigests.digest(member("ns/gang-1-7"));
    assertThat(d.facts().jobId()).isEqualTo("ns/gang-1");
    assertThat(d.request().milliCpu()).isEqualTo(2000);
    assertThat(d.podIndex()).isEqualTo(7);
    assertThat(d.boundsProblem()).isNull();

    PodDigests.Digest huge =
        PodDigests.digest(pod("ns/huge").requests("cpu", "99999999999999999999").build());
    assertThat(huge.boundsProblem()).contains("spec.containers[0].resources.requests");
    assertThat(huge.facts()).isNull();
  }

  @Test
  void tasksShareTheDigestsRequest_andANodesAccountingNeverChangesIt() {
    PodDigests digests = new PodDigests();
    Pod p = member("ns/gang-1-0");
    PodDigests.Digest d = digests.next(1).of(p);
    TaskState one = new TaskState(p, d);
    TaskState two = new TaskState(p, d);
    assertThat(one.request()).isSameAs(two.request()).isSameAs(d.request());

    NodeState node =
        new NodeState(node("n1").allocatable("cpu", "4").build(), 0, new NodeChangeLog());
    node.addTask(one);
    node.updateTask(one, one.status(), TaskStatus.RELEASING);
    node.evicted(one);
    node.removeTask(one);

    assertThat(node.idle().milliCpu()).isEqualTo(4000);
    assertThat(d.request().milliCpu()).isEqualTo(2000);
    assertThat(two.resreq().milliCpu()).isEqualTo(2000);
  }
}
