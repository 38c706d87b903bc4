package dev.caldera.framework.internal.loop;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * When the next scheduling cycle runs: a period after the previous one ended (Volcano's {@code
 * wait.Until(runOnce, schedulePeriod)}), or sooner, a debounce after work arrived.
 *
 * <p>{@link #wake()} moves the next cycle forward to a debounce from now, so that a burst of
 * arrivals (the pods of a gang, a job controller's replicas) is gathered into one session; later
 * wakes within that debounce change nothing. A wake during a cycle runs the next cycle a debounce
 * after this one ends, since the running session's snapshot may have been taken before the change.
 * A woken cycle also waits at least as long as the last cycle took: a session costs more as the
 * cluster grows, and under a steady stream of arrivals back-to-back sessions would take a core from
 * the API server on a shared control-plane node; this way sessions use at most half of one, and
 * each gathers what arrived meanwhile. Cycles never overlap: they all run on the one thread of the
 * executor.
 */
final class CycleTimer {

  private final ScheduledExecutorService executor;
  private final Runnable cycle;
  private final long periodNanos;

  /** Negative: wakes are ignored, cycles run every period only. */
  private final long debounceNanos;

  private ScheduledFuture<?> next;
  private long nextDue;
  private boolean inCycle;
  private boolean wokenInCycle;
  private long lastCycleNanos;
  private long lastEnd;

  /**
   * @param debounce null to ignore wakes (every period only)
   */
  CycleTimer(
      ScheduledExecutorService executor, Runnable cycle, Duration period, Duration debounce) {
    this.executor = executor;
    this.cycle = cycle;
    this.periodNanos = period.toNanos();
    this.debounceNanos = debounce == null ? -1 : debounce.toNanos();
  }

  /** Runs the first cycle at once. */
  synchronized void start() {
    scheduleIn(0);
  }

  /**
   * Work arrived: the next cycle runs a debounce from now (or when the pause after a long cycle
   * ends). Cheap; any thread.
   */
  synchronized void wake() {
    if (debounceNanos < 0) {
      return;
    }
    if (inCycle) {
      wokenInCycle = true;
      return;
    }
    long delay = wokenDelay();
    if (next != null && nextDue - System.nanoTime() <= delay) {
      return; // due soon enough already
    }
    if (next != null) {
      next.cancel(false);
    }
    scheduleIn(delay);
  }

  /**
   * The debounce, or the rest of a pause as long as the last cycle after its end if that is longer;
   * never more than a period.
   */
  private long wokenDelay() {
    long pauseLeft = lastEnd + lastCycleNanos - System.nanoTime();
    return Math.min(periodNanos, Math.max(debounceNanos, pauseLeft));
  }

  private void runCycle() {
    synchronized (this) {
      inCycle = true;
      wokenInCycle = false;
      next = null;
    }
    boolean ended = false;
    long started = System.nanoTime();
    try {
      cycle.run();
      ended = true;
    } finally {
      synchronized (this) {
        inCycle = false;
        lastEnd = System.nanoTime();
        lastCycleNanos = lastEnd - started;
        if (ended) { // a cycle that threw (out of memory) ends the loop
          scheduleIn(wokenInCycle ? wokenDelay() : periodNanos);
        }
      }
    }
  }

  private void scheduleIn(long nanos) {
    if (executor.isShutdown()) {
      return;
    }
    try {
      nextDue = System.nanoTime() + nanos;
      next = executor.schedule(this::runCycle, nanos, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException stopping) {
      next = null;
    }
  }
}
