package dev.caldera.load;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Creates a workload's pods on a small pool of worker threads. Paced, the calling thread hands each
 * unit (a gang, or one plain pod) to a worker when it is due, and the worker sends each pod's
 * create request at the pod's own due time ({@link PaceSchedule}): requests go out at the rate,
 * never in bursts followed by idling. Pods due together (a gang's, when the schedule says so) are
 * each handed to a worker of their own, so their requests are in flight at once, as a job
 * controller's are. A worker that falls behind (the API server answers slowly and every worker is
 * busy) sends the late pods at once, so the stream catches up if it can; the report's achieved rate
 * says whether it did. Unpaced (a backlog), every unit is handed out at once and the workers create
 * as fast as the API server answers.
 */
final class Submitter {

  /**
   * A gang's pod group goes to its worker this long before its first pod is due, so that the pod
   * group exists when the pods come (a scheduler sees no gang without its group).
   */
  static final long GROUP_LEAD_NANOS = 50_000_000L;

  /** The API calls that create a unit. May be called by several workers at once. */
  interface Creator {
    /** Creates the pod group of gang {@code unit}. */
    void createGroup(int unit) throws Exception;

    /** Creates pod {@code pod}. */
    void createPod(int pod) throws Exception;
  }

  private final int workers;

  Submitter(int workers) {
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be 1 or more: " + workers);
    }
    this.workers = workers;
  }

  /**
   * Creates every pod of {@code times}' workload and returns when all requests are answered or
   * {@code stop} says so (then no more requests are sent).
   *
   * @param schedule when each pod is due, counted from {@code startNanos}; null: unpaced
   */
  void run(
      PodTimes times, PaceSchedule schedule, long startNanos, Creator creator, BooleanSupplier stop)
      throws InterruptedException {
    Workload w = times.workload();
    AtomicInteger threadNumber = new AtomicInteger();
    ExecutorService pool =
        new ThreadPoolExecutor(
            workers,
            workers,
            0,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, "caldera-load-create-" + threadNumber.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    try {
      for (int unit = 0; unit < w.units() && !stop.getAsBoolean(); unit++) {
        if (schedule != null) {
          long lead = w.gangs() ? GROUP_LEAD_NANOS : 0;
          parkUntil(startNanos + schedule.offsetNanos(unit * w.unitSize()) - lead, stop);
        }
        int u = unit;
        if (schedule != null && w.gangs() && schedule.podsTogether() >= w.unitSize()) {
          handOutTogether(
              u, times, startNanos + schedule.offsetNanos(u * w.unitSize()), creator, pool, stop);
        } else {
          pool.execute(() -> createUnit(u, times, schedule, startNanos, creator, stop));
        }
      }
    } finally {
      pool.shutdown();
      while (!pool.awaitTermination(1, TimeUnit.SECONDS)) {
        if (stop.getAsBoolean()) {
          pool.shutdownNow();
        }
      }
    }
  }

  /**
   * Creates gang {@code unit}'s pod group on a worker now and, at {@code dueNanos}, hands each of
   * its pods to a worker of its own; a pod is sent once its group exists.
   */
  private static void handOutTogether(
      int unit,
      PodTimes times,
      long dueNanos,
      Creator creator,
      ExecutorService pool,
      BooleanSupplier stop) {
    Workload w = times.workload();
    CompletableFuture<Boolean> group =
        CompletableFuture.supplyAsync(() -> createGroup(unit, times, creator), pool);
    parkUntil(dueNanos, stop);
    for (int pod = unit * w.unitSize(); pod < (unit + 1) * w.unitSize(); pod++) {
      int p = pod;
      pool.execute(
          () -> {
            if (group.join() && !stop.getAsBoolean()) {
              createPod(p, times, creator);
            }
          });
    }
  }

  /** Creates gang {@code unit}'s pod group; if it fails, its pods fail (unsent) and false. */
  private static boolean createGroup(int unit, PodTimes times, Creator creator) {
    Workload w = times.workload();
    try {
      creator.createGroup(unit);
      return true;
    } catch (Exception e) {
      String why = "its pod group " + w.groupName(unit) + ": " + Errors.describe(e);
      for (int pod = unit * w.unitSize(); pod < (unit + 1) * w.unitSize(); pod++) {
        times.failed(pod, why);
      }
      return false;
    }
  }

  private static void createPod(int pod, PodTimes times, Creator creator) {
    times.sent(pod, System.nanoTime());
    try {
      creator.createPod(pod);
      times.created(pod, System.nanoTime());
    } catch (Exception e) {
      times.failed(pod, Errors.describe(e));
    }
  }

  private static void createUnit(
      int unit,
      PodTimes times,
      PaceSchedule schedule,
      long startNanos,
      Creator creator,
      BooleanSupplier stop) {
    Workload w = times.workload();
    int first = unit * w.unitSize();
    if (w.gangs() && !createGroup(unit, times, creator)) {
      return;
    }
    for (int pod = first; pod < first + w.unitSize(); pod++) {
      if (schedule != null) {
        parkUntil(startNanos + schedule.offsetNanos(pod), stop);
      }
      if (stop.getAsBoolean()) {
        return;
      }
      createPod(pod, times, creator);
    }
  }

  /**
   * Sleeps until {@code deadline} ({@link System#nanoTime}), or until {@code stop} says so or the
   * thread is interrupted.
   */
  static void parkUntil(long deadline, BooleanSupplier stop) {
    for (long left = deadline - System.nanoTime();
        left > 0 && !stop.getAsBoolean() && !Thread.currentThread().isInterrupted();
        left = deadline - System.nanoTime()) {
      LockSupport.parkNanos(Math.min(left, 100_000_000L));
    }
  }
}
