package dev.caldera.kube.internal;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.logging.Filter;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * fabric8 re-establishes a broken watch by itself, and logs every attempt after the first of each
 * watch at INFO with a full stack trace (the first at DEBUG): with the API server down for 10 s,
 * the 12 informers printed about 500 lines. While any informers run, this filter takes those
 * records off the console: each counts as a watch error of every running {@link Counters}, and the
 * problem is said in one line when it first shows, when it changes, and once a minute while it
 * lasts (fabric8 says nothing when a watch is back). Where that logger logs at INFO (the default),
 * its level is lowered to DEBUG meanwhile, so that a watch's first failure counts too; its other
 * DEBUG records are few (one per watch started or closed) and the console shows only INFO and up.
 *
 * <p>java.util.logging's loggers are global; the filter is removed and the level restored when the
 * last informers stop, so that an updated kube bundle's classes are not held by the old filter.
 */
final class WatchRetryLog implements Filter {

  /** The fabric8 class that logs the retries. */
  static final String WATCH_MANAGER =
      "io.fabric8.kubernetes.client.dsl.internal.AbstractWatchManager";

  /** How often a problem that lasts is said again. */
  static final Duration REPEAT = Duration.ofMinutes(1);

  private static final Logger MANAGER_LOGGER = Logger.getLogger(WATCH_MANAGER);

  private static final System.Logger LOG = System.getLogger(Informers.class.getName());

  private static final WatchRetryLog INSTANCE =
      new WatchRetryLog(Clock.systemUTC(), line -> LOG.log(System.Logger.Level.WARNING, line));

  /**
   * Whether this class lowered the watch manager's level, and the level it had (null: inherited).
   */
  private static boolean levelLowered;

  private static Level levelBefore;

  private final Clock clock;
  private final Consumer<String> out;
  private final Set<Counters> running = ConcurrentHashMap.newKeySet();
  private String lastProblem;
  private Instant lastSaid;
  private long attempts;

  WatchRetryLog(Clock clock, Consumer<String> out) {
    this.clock = clock;
    this.out = out;
  }

  /** Informers counting into {@code counters} started: their watches' retries are counted there. */
  static void started(Counters counters) {
    synchronized (INSTANCE) {
      if (!levelLowered
          && MANAGER_LOGGER.isLoggable(Level.INFO)
          && !MANAGER_LOGGER.isLoggable(Level.FINE)) {
        levelBefore = MANAGER_LOGGER.getLevel();
        levelLowered = true;
        MANAGER_LOGGER.setLevel(Level.FINE);
      }
      INSTANCE.running.add(counters);
      MANAGER_LOGGER.setFilter(INSTANCE);
    }
  }

  /** Those informers stopped. */
  static void stopped(Counters counters) {
    synchronized (INSTANCE) {
      INSTANCE.running.remove(counters);
      if (INSTANCE.running.isEmpty()) {
        INSTANCE.lastProblem = null;
        if (MANAGER_LOGGER.getFilter() == INSTANCE) {
          MANAGER_LOGGER.setFilter(null);
        }
        if (levelLowered) {
          MANAGER_LOGGER.setLevel(levelBefore);
          levelLowered = false;
        }
      }
    }
  }

  @Override
  public boolean isLoggable(LogRecord record) {
    if (!isRetry(record.getMessage())) {
      return true;
    }
    if (cancelled(record.getThrown())) {
      return false; // a watch closed by its informer (a stop): nothing failed
    }
    running.forEach(c -> c.watchErrors.increment());
    retried(problem(record.getThrown()));
    return false;
  }

  private static boolean cancelled(Throwable thrown) {
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      if (t instanceof CancellationException) {
        return true;
      }
    }
    return false;
  }

  /** What failed (fabric8 logs the HTTP client's exception, which names no status unanswered). */
  static String problem(Throwable thrown) {
    return thrown == null
        ? "the watch failed without a reason"
        : ApiErrors.describeRequestFailure(thrown);
  }

  /**
   * fabric8's messages for a watch that failed and will be re-established: the first failure (at
   * DEBUG) and the next ones before it delivered anything (at INFO).
   */
  static boolean isRetry(String message) {
    return message != null
        && (message.startsWith("Watch connection error")
            || message.startsWith("Unknown Watch error received"));
  }

  /** One more failed attempt to re-establish a watch, for {@code problem}. */
  synchronized void retried(String problem) {
    Instant now = clock.instant();
    boolean changed = !problem.equals(lastProblem);
    if (changed) {
      attempts = 0;
    }
    attempts++;
    if (changed || !now.isBefore(lastSaid.plus(REPEAT))) {
      lastProblem = problem;
      lastSaid = now;
      out.accept(
          "watches: "
              + problem
              + "; fabric8 reconnects them with backoff ("
              + attempts
              + (attempts == 1 ? " failed attempt" : " failed attempts")
              + " so far)");
    }
  }
}
