package dev.caldera.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WriteThrottleTest {

  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
  private final List<String> sent = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() {
    timer.shutdownNow();
  }

  private Runnable write(String what) {
    return () -> sent.add(what);
  }

  @Test
  void reportsAreHeldForAnInterval_andOnlyTheLatestOfEachObjectIsWritten() throws Exception {
    WriteThrottle t = new WriteThrottle(timer, Duration.ofMillis(200));

    t.offer("pg1", false, write("pg1 v1"));
    t.offer("pg1", false, write("pg1 v2"));
    t.offer("pg2", false, write("pg2 v1"));
    t.offer("pg1", false, write("pg1 v3"));
    assertThat(sent).isEmpty();

    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (sent.size() < 2 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    Thread.sleep(300); // another interval: nothing else may come
    assertThat(sent).containsExactlyInAnyOrder("pg1 v3", "pg2 v1");
    assertThat(t.size()).isZero();
  }

  @Test
  void anUrgentWriteGoesAtOnce_andDropsTheOneHeld() {
    WriteThrottle t = new WriteThrottle(timer, Duration.ofHours(1));
    t.offer("pg1", false, write("pending, 3 of 10"));

    t.offer("pg1", true, write("running"));
    t.drain();

    assertThat(sent).containsExactly("running");
  }

  @Test
  void cancel_dropsTheWriteHeld() {
    WriteThrottle t = new WriteThrottle(timer, Duration.ofHours(1));
    t.offer("pod1", false, write("unschedulable"));
    t.offer("pod2", false, write("pod2 unschedulable"));

    t.cancel("pod1");
    t.drain();

    assertThat(sent).containsExactly("pod2 unschedulable");
  }

  @Test
  void drain_sendsEveryWriteHeld_once() {
    WriteThrottle t = new WriteThrottle(timer, Duration.ofHours(1));
    t.offer("a", false, write("a1"));
    t.offer("a", false, write("a2"));
    t.offer("b", false, write("b1"));

    t.drain();
    t.drain();

    assertThat(sent).containsExactlyInAnyOrder("a2", "b1");
  }
}
