package dev.caldera.kube;

import static dev.caldera.kube.MockApi.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.api.model.Queue;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.loop.QueueLifecycle;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Where Caldera keeps queue states, a session writes {@code Open} into a queue whose state nobody
 * has written. The cache it decides on can be behind the server: an operator's close written by
 * another replica or by {@code kubectl}, or a close whose echo has not yet come back through the
 * informer. Such a write must not undo the close; it is made on the version the session saw, and
 * the server refuses it once the queue has moved on.
 */
class QueueStateWriteRaceTest {

  private final MockApi api = new MockApi();

  @AfterEach
  void stop() {
    api.close();
  }

  private static SessionResult allocated(String... queues) {
    Map<String, Map<String, dev.caldera.api.resource.Quantity>> none =
        new java.util.LinkedHashMap<>();
    for (String q : queues) {
      none.put(q, Map.of());
    }
    return new SessionResult(
        "s1", List.of(), List.of(), List.of(), Map.of(), none, Map.of(), List.of(), null);
  }

  private String state(String queue) {
    GenericKubernetesResource q = api.getQueue(queue);
    Object status = q.getAdditionalProperties().get("status");
    return status instanceof Map<?, ?> m ? (String) m.get("state") : null;
  }

  /**
   * Returns once the cache holds everything the server had: a watch's events come in order, so once
   * a label set now is in the cache, so is every earlier change (a watch may replay what its list
   * already had, and such a late copy would otherwise arrive while the test holds the rest).
   */
  private void caughtUp(KubeCluster cluster) {
    api.queue("barrier", 1);
    await(
        "the cache caught up with the server",
        () -> cluster.snapshot().queues().stream().anyMatch(q -> q.name().equals("barrier")));
  }

  private static String cachedState(KubeCluster cluster, String queue) {
    return cluster.snapshot().queues().stream()
        .filter(q -> q.name().equals(queue))
        .map(Queue::state)
        .findFirst()
        .orElse(null);
  }

  @Test
  void aSessionsOpen_doesNotUndoAStateWrittenAfterTheVersionItSaw() throws Exception {
    api.queue("fresh", 1);
    api.queue("closed-meanwhile", 1);
    MockApi.HeldCallbacks informers = new MockApi.HeldCallbacks();
    try (KubeCluster cluster = api.heldCluster("a", informers)) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      caughtUp(cluster);
      informers.hold();
      // Another writer closes the queue; this replica's informer has not shown it yet.
      api.kubectl
          .genericKubernetesResources(MockApi.QUEUES)
          .withName("closed-meanwhile")
          .subresource("status")
          .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"state\":\"Closed\"}}");

      cluster.apply(allocated("fresh", "closed-meanwhile"));
      assertThat(cluster.awaitWritesIdle(Duration.ofSeconds(10))).isTrue();

      assertThat(state("fresh")).as("a queue nobody changed gets its state").isEqualTo("Open");
      assertThat(state("closed-meanwhile")).as("the close stands").isEqualTo("Closed");
      assertThat(cluster.counters().statusWriteFailures())
          .as("a refused write is not a failure")
          .isZero();

      informers.release();
      await(
          "the close reaches the cache",
          () -> "Closed".equals(cachedState(cluster, "closed-meanwhile")));
      cluster.apply(allocated("fresh", "closed-meanwhile"));
      assertThat(cluster.awaitWritesIdle(Duration.ofSeconds(10))).isTrue();
      assertThat(state("closed-meanwhile")).isEqualTo("Closed");
    }
  }

  @Test
  void afterAnOperatorsClose_aSessionsNextStateIsWrittenOnTheVersionTheCloseAnswered()
      throws Exception {
    api.queue("research", 1);
    MockApi.HeldCallbacks informers = new MockApi.HeldCallbacks();
    try (KubeCluster cluster = api.heldCluster("a", informers)) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      caughtUp(cluster);
      informers.hold();
      QueueLifecycle.Outcome close = cluster.queueCommand("research", QueueLifecycle.Command.CLOSE);
      assertThat(close.result()).isEqualTo(QueueLifecycle.Result.DONE);
      // A queue closes through Closing; a session makes it Closed once nothing of it runs.
      assertThat(state("research")).isEqualTo("Closing");

      // The close's echo is still held: the session's write is made on the version the command's
      // write answered with, not on the one the informer last showed, and so it goes through.
      cluster.apply(movedTo("research", "Closed"));
      assertThat(cluster.awaitWritesIdle(Duration.ofSeconds(10))).isTrue();
      assertThat(state("research")).isEqualTo("Closed");
      informers.release();
      await(
          "the server's state reaches the cache",
          () -> "Closed".equals(cachedState(cluster, "research")));
    }
  }

  @Test
  void aSessionsCloseOfAQueueAnOperatorReopenedSince_isNotWritten() throws Exception {
    api.queueWithState("research", "Closing");
    try (KubeCluster cluster = api.cluster("a")) {
      assertThat(cluster.awaitSync(Duration.ofSeconds(10))).isTrue();
      // A session saw the queue Closing with nothing running and moves it to Closed; before its
      // result is written, the operator opens the queue again.
      QueueLifecycle.Outcome open = cluster.queueCommand("research", QueueLifecycle.Command.OPEN);
      assertThat(open.result()).isEqualTo(QueueLifecycle.Result.DONE);

      cluster.apply(movedTo("research", "Closed"));
      assertThat(cluster.awaitWritesIdle(Duration.ofSeconds(10))).isTrue();
      assertThat(state("research")).as("the operator's open stands").isEqualTo("Open");
    }
  }

  private static SessionResult movedTo(String queue, String state) {
    return new SessionResult(
        "s1",
        List.of(),
        List.of(),
        List.of(),
        Map.of(),
        Map.of(queue, Map.of()),
        Map.of(),
        List.of(),
        null,
        List.of(),
        Map.of(),
        Map.of(queue, state),
        Map.of());
  }
}
