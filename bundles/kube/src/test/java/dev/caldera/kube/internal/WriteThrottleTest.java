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

  private WriteThrottle throttle(Duration interval) {
    return new WriteThrottle(timer, interval, System::nanoTime);
  }

  private Runnable write(String what) {
    return () -> sent.add(what);
  }

  @Test
  void theFirstWriteGoesAtOnce_laterOnesWithinTheIntervalBecomeTheLatestOne() throws Exception {
    WriteThrottle t = throttle(Duration.ofMillis(200));

    t.offer("pg1", false, write("pg1 v1"));
    t.offer("pg1", false, write("pg1 v2"));
    t.offer("pg1", false, write("pg1 v3"));
    t.offer("pg2", false, write("pg2 v1"));
    assertThat(sent).containsExactly("pg1 v1", "pg2 v1");

    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (sent.size() < 3 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    Thread.sleep(300); // another interval: nothing else may come
    assertThat(sent).containsExactly("pg1 v1", "pg2 v1", "pg1 v3");
  }

  @Test
  void anUrgentWriteGoesAtOnce_andDropsTheOneKept() {
    WriteThrottle t = throttle(Duration.ofHours(1));
    t.offer("pg1", false, write("pending"));
    t.offer("pg1", false, write("pending, 3 of 10"));

    t.offer("pg1", true, write("running"));
    t.drain();

    assertThat(sent).containsExactly("pending", "running");
  }

  @Test
  void cancel_dropsTheWriteKept() {
    WriteThrottle t = throttle(Duration.ofHours(1));
    t.offer("pod1", false, write("unschedulable"));
    t.offer("pod1", false, write("unschedulable again"));

    t.cancel("pod1");
    t.drain();

    assertThat(sent).containsExactly("unschedulable");
  }

  @Test
  void drain_sendsEveryWriteKept_once() {
    WriteThrottle t = throttle(Duration.ofHours(1));
    t.offer("a", false, write("a1"));
    t.offer("a", false, write("a2"));
    t.offer("b", false, write("b1"));
    t.offer("b", false, write("b2"));

    t.drain();
    t.drain();

    assertThat(sent).containsExactly("a1", "b1", "a2", "b2");
  }
}
