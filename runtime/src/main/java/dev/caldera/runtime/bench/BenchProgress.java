package dev.caldera.runtime.bench;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The progress line of a running bench session: pods placed so far and pods per second so far,
 * printed every interval by a daemon thread while a session runs (nothing between sessions). The
 * clock and the count are injected so the line can be checked without waiting.
 */
public final class BenchProgress implements AutoCloseable {

  private final PrintStream err;
  private final LongSupplier nanoClock;
  private final PlacementCounter counter;
  private final int warmup;
  private final int sessions;
  private ScheduledExecutorService ticker;
  // Written by the session thread, read by the ticker.
  private volatile String label;
  private volatile long startNanos;
  private int started;

  /**
   * @param warmup warm-up sessions that run first, labelled as such
   * @param sessions measured sessions after them
   */
  public BenchProgress(
      PrintStream err, LongSupplier nanoClock, PlacementCounter counter, int warmup, int sessions) {
    this.err = err;
    this.nanoClock = nanoClock;
    this.counter = counter;
    this.warmup = warmup;
    this.sessions = sessions;
  }

  /** Prints {@link #line} every {@code interval} on a daemon thread until {@link #close}. */
  public BenchProgress printEvery(Duration interval) {
    long millis = Math.max(1, interval.toMillis());
    ticker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "bench-progress");
              t.setDaemon(true);
              return t;
            });
    ticker.scheduleAtFixedRate(this::print, millis, millis, TimeUnit.MILLISECONDS);
    return this;
  }

  /** A session starts: counting and timing from zero. Call on the session's thread. */
  public void sessionStarted() {
    started++;
    label =
        started <= warmup
            ? "warm-up " + started + "/" + warmup
            : "session " + (started - warmup) + "/" + sessions;
    counter.reset();
    startNanos = nanoClock.getAsLong();
  }

  /** The session ended: no line until the next one starts. */
  public void sessionEnded() {
    label = null;
  }

  /** The line for the session running now, or null between sessions. */
  public String line() {
    String l = label;
    if (l == null) {
      return null;
    }
    double seconds = (nanoClock.getAsLong() - startNanos) / 1e9;
    long placed = counter.placed();
    double rate = seconds <= 0 ? 0 : placed / seconds;
    return String.format(
        Locale.ROOT,
        "bench: %s: %,d pods placed in %.1f s, %,.0f pods/s so far",
        l,
        placed,
        seconds,
        rate);
  }

  /** Prints the line, if a session is running. */
  public void print() {
    String l = line();
    if (l != null) {
      err.println(l);
      err.flush();
    }
  }

  @Override
  public void close() {
    if (ticker != null) {
      ticker.shutdownNow();
    }
  }
}
