package dev.caldera.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SubmitterTest {

  /** Records the calls, and when the pod groups were created. */
  private static class Recording implements Submitter.Creator {
    final List<String> calls = new CopyOnWriteArrayList<>();
    final ConcurrentHashMap<Integer, Long> groupCreatedAt = new ConcurrentHashMap<>();
    final Workload w;

    Recording(Workload w) {
      this.w = w;
    }

    @Override
    public void createGroup(int unit) {
      groupCreatedAt.put(unit, System.nanoTime());
      calls.add(w.groupName(unit));
    }

    @Override
    public void createPod(int pod) {
      calls.add(w.podName(pod));
    }
  }

  @Test
  void aPacedStream_createsEveryPod_noneBeforeItIsDue_eachAfterItsGroup() throws Exception {
    Workload w = new Workload(4, 5);
    PodTimes times = new PodTimes(w);
    Recording creator = new Recording(w);
    PaceSchedule pace = new PaceSchedule(200);
    long start = System.nanoTime();

    new Submitter(3).run(times, pace, start, creator, () -> false);

    assertThat(times.createdCount()).isEqualTo(20);
    assertThat(creator.calls).hasSize(25);
    for (int pod = 0; pod < w.pods(); pod++) {
      assertThat(times.sentAt(pod))
          .as("%s sent at or after its due time", w.podName(pod))
          .isGreaterThanOrEqualTo(start + pace.offsetNanos(pod));
      assertThat(times.sentAt(pod))
          .as("%s sent after its pod group was created", w.podName(pod))
          .isGreaterThan(creator.groupCreatedAt.get(w.unitOf(pod)));
      assertThat(times.createdAt(pod)).isGreaterThanOrEqualTo(times.sentAt(pod));
    }
  }

  @Test
  void aGangDueTogether_hasAllItsPodsInFlightAtOnce_afterItsGroupAndNotBeforeItsTurn()
      throws Exception {
    Workload w = new Workload(4, 3);
    PodTimes times = new PodTimes(w);
    PaceSchedule pace = new PaceSchedule(200, 4);
    ConcurrentHashMap<Integer, CountDownLatch> inFlight = new ConcurrentHashMap<>();
    List<Integer> sentAlone = new CopyOnWriteArrayList<>();
    Recording creator =
        new Recording(w) {
          @Override
          public void createPod(int pod) {
            CountDownLatch gang =
                inFlight.computeIfAbsent(w.unitOf(pod), u -> new CountDownLatch(w.unitSize()));
            gang.countDown();
            // Sent one after the other, a pod would wait here for gang members not yet sent.
            try {
              if (!gang.await(10, TimeUnit.SECONDS)) {
                sentAlone.add(pod);
              }
            } catch (InterruptedException e) {
              sentAlone.add(pod);
            }
            super.createPod(pod);
          }
        };
    long start = System.nanoTime();

    new Submitter(8).run(times, pace, start, creator, () -> false);

    assertThat(sentAlone).isEmpty();
    assertThat(times.createdCount()).isEqualTo(12);
    for (int pod = 0; pod < w.pods(); pod++) {
      long gangDue = start + pace.offsetNanos(w.unitOf(pod) * w.unitSize());
      assertThat(times.sentAt(pod)).isGreaterThanOrEqualTo(gangDue);
      assertThat(times.sentAt(pod)).isGreaterThan(creator.groupCreatedAt.get(w.unitOf(pod)));
    }
  }

  @Test
  void aBacklog_isCreatedWithoutPacing() throws Exception {
    Workload w = new Workload(0, 50);
    PodTimes times = new PodTimes(w);
    Recording creator = new Recording(w);

    new Submitter(4).run(times, null, System.nanoTime(), creator, () -> false);

    assertThat(times.createdCount()).isEqualTo(50);
    assertThat(creator.calls).hasSize(50).doesNotHaveDuplicates();
  }

  @Test
  void aFailedPodGroup_failsItsPods_whichAreNotSent() throws Exception {
    Workload w = new Workload(2, 2);
    PodTimes times = new PodTimes(w);
    Recording creator =
        new Recording(w) {
          @Override
          public void createGroup(int unit) {
            if (unit == 1) {
              throw new IllegalStateException("refused");
            }
            super.createGroup(unit);
          }
        };

    new Submitter(1).run(times, null, System.nanoTime(), creator, () -> false);

    assertThat(times.createdCount()).isEqualTo(2);
    assertThat(times.failures()).isEqualTo(2);
    assertThat(times.firstFailure()).isEqualTo("gang-1-0: its pod group gang-1: refused");
    assertThat(creator.calls).containsExactly("gang-0", "gang-0-0", "gang-0-1");
  }

  @Test
  void aFailedPod_isCountedWithItsReason_andTheOthersGoOn() throws Exception {
    Workload w = new Workload(0, 3);
    PodTimes times = new PodTimes(w);
    Recording creator =
        new Recording(w) {
          @Override
          public void createPod(int pod) {
            if (pod == 1) {
              throw new IllegalStateException("quota exceeded");
            }
            super.createPod(pod);
          }
        };

    new Submitter(1).run(times, null, System.nanoTime(), creator, () -> false);

    assertThat(times.createdCount()).isEqualTo(2);
    assertThat(times.isCreated(1)).isFalse();
    assertThat(times.firstFailure()).isEqualTo("pod-1: quota exceeded");
  }

  @Test
  void stop_endsTheStream_withoutSendingTheRest() throws Exception {
    Workload w = new Workload(0, 1_000);
    PodTimes times = new PodTimes(w);
    AtomicInteger sent = new AtomicInteger();
    Submitter.Creator creator =
        new Submitter.Creator() {
          @Override
          public void createGroup(int unit) {}

          @Override
          public void createPod(int pod) {
            sent.incrementAndGet();
          }
        };

    // 10 pods a second would take 100 s; the stop comes after the third pod.
    new Submitter(2)
        .run(times, new PaceSchedule(10), System.nanoTime(), creator, () -> sent.get() >= 3);

    assertThat(sent.get()).isBetween(3, 4);
    assertThat(times.createdCount()).isEqualTo(sent.get());
  }
}
