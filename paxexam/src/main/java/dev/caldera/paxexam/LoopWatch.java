package dev.caldera.paxexam;

import dev.caldera.framework.loop.LoopEvent;
import dev.caldera.framework.loop.SchedulerMonitor;
import dev.caldera.framework.loop.SessionRecord;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/** Follows a running loop's sessions and events; every wait has a timeout. */
public final class LoopWatch implements SchedulerMonitor.Listener, AutoCloseable {

  /** How long each wait lasts before it fails. */
  public static final long TIMEOUT_SECONDS = 30;

  private final SchedulerMonitor monitor;
  private final BlockingQueue<SessionRecord> sessions = new LinkedBlockingQueue<>();
  private final BlockingQueue<LoopEvent> events = new LinkedBlockingQueue<>();
  private final List<LoopEvent> seen = new CopyOnWriteArrayList<>();

  private final LongSupplier probe;
  private final Map<LoopEvent, Long> probed = new IdentityHashMap<>();

  /** Follows {@code monitor} from now on (its events recorded before included). */
  public LoopWatch(SchedulerMonitor monitor) {
    this(monitor, () -> 0);
  }

  /**
   * Follows {@code monitor}, sampling {@code probe} at each event.
   *
   * @param monitor the loop to follow
   * @param probe sampled on the loop's thread when each event is recorded (see {@link #probedAt})
   */
  public LoopWatch(SchedulerMonitor monitor, LongSupplier probe) {
    this.monitor = monitor;
    this.probe = probe;
    monitor.addListener(this);
    // What happened before the listener was added.
    events.addAll(monitor.events(Integer.MAX_VALUE));
  }

  @Override
  public void sessionCompleted(SessionRecord session) {
    sessions.add(session);
  }

  @Override
  public void eventRecorded(LoopEvent event) {
    synchronized (probed) {
      probed.put(event, probe.getAsLong());
    }
    events.add(event);
  }

  /** The probe's value when {@code event} was recorded. */
  public long probedAt(LoopEvent event) {
    synchronized (probed) {
      return probed.get(event);
    }
  }

  /** The next session recorded from now on that matches. */
  public SessionRecord session(Predicate<SessionRecord> matching) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
    while (true) {
      SessionRecord r = sessions.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (r == null) {
        throw new AssertionError(
            "no matching session within " + TIMEOUT_SECONDS + " s; health: " + monitor.health());
      }
      if (matching.test(r)) {
        return r;
      }
    }
  }

  /** The next session recorded from now on. */
  public SessionRecord nextSession() throws InterruptedException {
    sessions.clear();
    return session(r -> true);
  }

  /** The first event (recorded before or since this watch started) with this reason. */
  public LoopEvent event(String reason) throws InterruptedException {
    return event(reason, "");
  }

  /** The first event (before or since this watch started) with this reason and message text. */
  public LoopEvent event(String reason, String containing) throws InterruptedException {
    for (LoopEvent e : seen) {
      if (e.reason().equals(reason) && e.message().contains(containing)) {
        return e;
      }
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
    while (true) {
      LoopEvent e = events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (e != null) {
        seen.add(e);
      }
      if (e == null) {
        throw new AssertionError(
            "no "
                + reason
                + " event with \""
                + containing
                + "\" within "
                + TIMEOUT_SECONDS
                + " s; events: "
                + monitor.events(20));
      }
      if (e.reason().equals(reason) && e.message().contains(containing)) {
        return e;
      }
    }
  }

  @Override
  public void close() {
    monitor.removeListener(this);
  }
}
