package dev.caldera.kube.internal;

import static dev.caldera.kube.MockApi.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WriteQueueTest {

  private final Counters counters = new Counters();
  private final WriteQueue queue =
      new WriteQueue(2, 3, Duration.ofMillis(1), Duration.ofMillis(4), counters);

  @AfterEach
  void close() {
    queue.close();
  }

  @Test
  void callsForOneKey_runInSubmissionOrder_evenWhenAnEarlierOneIsRetried() throws Exception {
    List<String> order = new CopyOnWriteArrayList<>();
    AtomicInteger first = new AtomicInteger();
    queue.submit(
        "pod:a",
        () -> {
          if (first.incrementAndGet() < 3) {
            throw new KubernetesClientException("busy", 503, null);
          }
          order.add("first");
        });
    CompletableFuture<Void> second = queue.submit("pod:a", () -> order.add("second"));
    second.get(5, TimeUnit.SECONDS);
    assertThat(order).containsExactly("first", "second");
    assertThat(counters.retries()).isEqualTo(2);
  }

  @Test
  void closeNow_interruptsTheCallsRunning_andRunsNoneOfThoseQueued() throws Exception {
    CountDownLatch running = new CountDownLatch(2);
    AtomicInteger interrupted = new AtomicInteger();
    AtomicInteger ran = new AtomicInteger();
    for (int i = 0; i < 2; i++) {
      queue.submit(
          "pod:slow-" + i,
          () -> {
            running.countDown();
            try {
              Thread.sleep(60_000);
            } catch (InterruptedException e) {
              interrupted.incrementAndGet();
            }
          });
    }
    for (int i = 0; i < 3; i++) {
      queue.submit("pod:queued-" + i, ran::incrementAndGet);
    }
    assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(queue.waiting()).isEqualTo(5);

    queue.closeNow();

    await("the running calls interrupted", () -> interrupted.get() == 2);
    assertThat(ran).hasValue(0);
    assertThat(queue.submit("pod:late", ran::incrementAndGet)).isCompletedExceptionally();
  }

  @Test
  void concurrency_isBounded() throws Exception {
    AtomicInteger running = new AtomicInteger();
    AtomicInteger peak = new AtomicInteger();
    CountDownLatch release = new CountDownLatch(1);
    List<CompletableFuture<Void>> all = new CopyOnWriteArrayList<>();
    for (int i = 0; i < 6; i++) {
      all.add(
          queue.submit(
              "pod:" + i,
              () -> {
                peak.accumulateAndGet(running.incrementAndGet(), Math::max);
                release.await(5, TimeUnit.SECONDS);
                running.decrementAndGet();
              }));
    }
    assertThat(counters.writesInFlight()).isEqualTo(6);
    // Both threads busy (all six were submitted; an unbounded queue would run them all).
    // The peak is recorded just after the count rises: wait for it, not for the count.
    await("two running", () -> peak.get() == 2);
    assertThat(running.get()).isEqualTo(2);
    release.countDown();
    CompletableFuture.allOf(all.toArray(new CompletableFuture<?>[0])).get(5, TimeUnit.SECONDS);
    assertThat(peak.get()).isEqualTo(2);
    assertThat(queue.awaitIdle(Duration.ofSeconds(5))).isTrue();
    assertThat(counters.writesInFlight()).isZero();
  }

  @Test
  void aDefinitiveError_isNotRetried() {
    AtomicInteger calls = new AtomicInteger();
    CompletableFuture<Void> f =
        queue.submit(
            "pod:a",
            () -> {
              calls.incrementAndGet();
              throw new KubernetesClientException("conflict", 409, null);
            });
    assertThatThrownBy(() -> f.get(5, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .hasRootCauseMessage("conflict");
    assertThat(calls.get()).isEqualTo(1);
    assertThat(counters.retries()).isZero();
  }

  @Test
  void aTransientError_isRetriedUpToTheAttempts() {
    AtomicInteger calls = new AtomicInteger();
    CompletableFuture<Void> f =
        queue.submit(
            "pod:a",
            () -> {
              calls.incrementAndGet();
              throw new IOException("connection reset");
            });
    assertThatThrownBy(() -> f.get(5, TimeUnit.SECONDS)).hasRootCauseMessage("connection reset");
    assertThat(calls.get()).isEqualTo(3);
  }

  @Test
  void isTransient_coversIoTooManyRequestsAndServerErrors() {
    assertThat(WriteQueue.isTransient(new KubernetesClientException("x", 0, null))).isTrue();
    assertThat(WriteQueue.isTransient(new KubernetesClientException("x", 429, null))).isTrue();
    assertThat(WriteQueue.isTransient(new KubernetesClientException("x", 500, null))).isTrue();
    assertThat(WriteQueue.isTransient(new KubernetesClientException("x", 503, null))).isTrue();
    assertThat(WriteQueue.isTransient(new KubernetesClientException("x", 404, null))).isFalse();
    assertThat(WriteQueue.isTransient(new KubernetesClientException("x", 409, null))).isFalse();
    assertThat(WriteQueue.isTransient(new KubernetesClientException("x", 422, null))).isFalse();
    assertThat(WriteQueue.isTransient(new WriteQueue.TransientException("pdb"))).isTrue();
    assertThat(WriteQueue.isTransient(new IllegalStateException("bug"))).isFalse();
  }

  @Test
  void backoff_doublesUpToTheCap_withJitter() {
    WriteQueue q = new WriteQueue(1, 5, Duration.ofMillis(100), Duration.ofMillis(1000), counters);
    try {
      for (int i = 0; i < 20; i++) {
        assertThat(q.backoffMillis(1)).isBetween(80L, 120L);
        assertThat(q.backoffMillis(3)).isBetween(320L, 480L);
        assertThat(q.backoffMillis(10)).isBetween(800L, 1200L);
      }
    } finally {
      q.close();
    }
  }

  @Test
  void afterClose_submissionsFail() {
    queue.close();
    assertThat(queue.submit("pod:a", () -> {})).isCompletedExceptionally();
  }

  @Test
  void aBoundedQueue_refusesWhatIsBeyondItsLimit_andTakesCallsAgainOnceTheyLeft() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    try (WriteQueue bounded =
        new WriteQueue(1, 1, Duration.ofMillis(1), Duration.ofMillis(1), 2, counters)) {
      CompletableFuture<Void> running = bounded.submit("event:a", release::await);
      CompletableFuture<Void> waiting = bounded.submit("event:b", () -> {});

      CompletableFuture<Void> refused = bounded.submit("event:c", () -> {});

      assertThat(refused).isCompletedExceptionally();
      assertThatThrownBy(refused::get).hasCauseInstanceOf(WriteQueue.FullException.class);
      assertThat(waiting).isNotDone();
      release.countDown();
      running.get(5, TimeUnit.SECONDS);
      waiting.get(5, TimeUnit.SECONDS);
      await("the two calls left the queue", () -> counters.writesInFlight() == 0);
      bounded.submit("event:d", () -> {}).get(5, TimeUnit.SECONDS);
    }
  }
}
