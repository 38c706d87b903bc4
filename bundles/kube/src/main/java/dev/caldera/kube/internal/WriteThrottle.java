package dev.caldera.kube.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * At most one write per object per interval, the latest one winning: for what sessions report again
 * and again (a pending pod's condition, a pod group's or queue's status, a warning event).
 *
 * <p>Sessions start as soon as work arrives, many a second under load, and each reports every
 * pending gang again with new counts ("3/10 tasks in gang unschedulable"). Written each time, the
 * reports took the API server from the binds (5 writes per bound pod where kube-scheduler makes 2,
 * issue 32). Here the first write of an object goes at once; a later one within the interval is
 * kept and sent when the interval is up, replaced meanwhile by any newer one. An urgent write (a
 * pod group's phase changed) goes at once and drops the one kept; {@link #cancel} drops it too (a
 * pod being bound must not get an older "unschedulable" condition after its bind).
 */
final class WriteThrottle {

  private final ScheduledExecutorService timer;
  private final long intervalNanos;
  private final LongSupplier nanoTime;
  private final Map<String, Entry> entries = new HashMap<>();
  private int offersSinceSweep;

  private static final class Entry {
    long lastSent;
    Runnable kept;
  }

  WriteThrottle(ScheduledExecutorService timer, Duration interval, LongSupplier nanoTime) {
    this.timer = timer;
    this.intervalNanos = interval.toNanos();
    this.nanoTime = nanoTime;
  }

  /**
   * Sends the write for {@code key} now, or keeps it for the end of the key's interval.
   *
   * @param send queues the write (never blocks)
   */
  void offer(String key, boolean urgent, Runnable send) {
    Runnable now = null;
    synchronized (this) {
      sweepSometimes();
      long t = nanoTime.getAsLong();
      Entry e = entries.get(key);
      if (e == null) {
        e = new Entry();
        entries.put(key, e);
        e.lastSent = t;
        now = send;
      } else if (urgent || t - e.lastSent >= intervalNanos && e.kept == null) {
        e.kept = null;
        e.lastSent = t;
        now = send;
      } else {
        boolean scheduled = e.kept != null;
        e.kept = send;
        if (!scheduled) {
          long due = Math.max(0, e.lastSent + intervalNanos - t);
          schedule(key, due);
        }
      }
    }
    if (now != null) {
      now.run();
    }
  }

  /** Sends every write kept, now (at a stop, or before waiting for the writes to be answered). */
  void drain() {
    List<Runnable> sends = new ArrayList<>();
    synchronized (this) {
      long t = nanoTime.getAsLong();
      for (Entry e : entries.values()) {
        if (e.kept != null) {
          sends.add(e.kept);
          e.kept = null;
          e.lastSent = t;
        }
      }
    }
    sends.forEach(Runnable::run);
  }

  /** Drops the write kept for {@code key}, if any. */
  synchronized void cancel(String key) {
    Entry e = entries.get(key);
    if (e != null) {
      e.kept = null;
    }
  }

  private void schedule(String key, long delayNanos) {
    try {
      timer.schedule(() -> flush(key), delayNanos, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException stopping) {
      // Closing: what was kept is dropped, as the writes still queued are.
    }
  }

  private void flush(String key) {
    Runnable send;
    synchronized (this) {
      Entry e = entries.get(key);
      if (e == null || e.kept == null) {
        return; // sent urgently or cancelled meanwhile
      }
      send = e.kept;
      e.kept = null;
      e.lastSent = nanoTime.getAsLong();
    }
    send.run();
  }

  /** Forgets the objects not written for an interval, now and then, so the map stays small. */
  private void sweepSometimes() {
    if (++offersSinceSweep < 4096) {
      return;
    }
    offersSinceSweep = 0;
    long t = nanoTime.getAsLong();
    for (Iterator<Entry> i = entries.values().iterator(); i.hasNext(); ) {
      Entry e = i.next();
      if (e.kept == null && t - e.lastSent >= intervalNanos) {
        i.remove();
      }
    }
  }

  /** How many objects it remembers (tests). */
  synchronized int size() {
    return entries.size();
  }
}
