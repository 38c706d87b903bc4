package dev.caldera.kube.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Holds back what sessions report again and again (a pending pod's condition, a pod group's or
 * queue's status, a warning about a waiting gang) for one interval, and writes only the latest
 * report of each object then: at most one write per object per interval, and none for a state that
 * did not last.
 *
 * <p>Sessions start as soon as work arrives, many a second under load, and each reports every
 * waiting gang again, with new counts ("3/10 tasks in gang unschedulable"), including the gang
 * whose pods are still being created. Written each time, the reports took the API server from the
 * binds (5.5 writes per bound pod where kube-scheduler makes 2, issue 32), and an overloaded API
 * server made gangs wait longer, which made more reports. A report kept here is replaced by any
 * newer one of its object; an urgent write (a pod group's phase changed) goes at once and drops it,
 * and so does {@link #cancel} (a pod being bound must not get an older "unschedulable" condition
 * after its bind). With Volcano's own period of one second, the same reports reach the API server
 * at the same pace as from Volcano.
 */
public final class WriteThrottle {

  private final ScheduledExecutorService timer;
  private final long intervalNanos;
  private final Map<String, Runnable> kept = new HashMap<>();

  public WriteThrottle(ScheduledExecutorService timer, Duration interval) {
    this.timer = timer;
    this.intervalNanos = interval.toNanos();
  }

  /**
   * Keeps the write for {@code key} as its latest, to be sent one interval after the first one
   * kept; an urgent write is sent now.
   *
   * @param send queues the write (never blocks)
   */
  void offer(String key, boolean urgent, Runnable send) {
    if (urgent) {
      synchronized (this) {
        kept.remove(key);
      }
      send.run();
      return;
    }
    synchronized (this) {
      if (kept.put(key, send) != null) {
        return; // its flush is scheduled already
      }
    }
    try {
      timer.schedule(() -> flush(key), intervalNanos, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException stopping) {
      // Closing: what was kept is dropped, as the writes still queued are.
    }
  }

  /** Drops the write kept for {@code key}, if any. */
  synchronized void cancel(String key) {
    kept.remove(key);
  }

  /** Sends every write kept, now (at a stop, or before waiting for the writes to be answered). */
  public void drain() {
    List<Runnable> sends;
    synchronized (this) {
      sends = new ArrayList<>(kept.values());
      kept.clear();
    }
    sends.forEach(Runnable::run);
  }

  private void flush(String key) {
    Runnable send;
    synchronized (this) {
      send = kept.remove(key);
    }
    if (send != null) { // else sent urgently, cancelled or drained meanwhile
      send.run();
    }
  }

  /** How many writes are kept (tests). */
  synchronized int size() {
    return kept.size();
  }
}
