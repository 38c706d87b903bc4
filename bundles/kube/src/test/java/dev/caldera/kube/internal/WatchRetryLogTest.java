package dev.caldera.kube.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.nio.channels.ClosedChannelException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class WatchRetryLogTest {

  /** A clock the test moves. */
  private static final class TestClock extends Clock {
    Instant now = Instant.parse("2026-11-25T10:00:00Z");

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  /** Records what reaches a java.util.logging logger's handlers. */
  private static final class Recorder extends Handler {
    final List<LogRecord> records = new CopyOnWriteArrayList<>();

    @Override
    public void publish(LogRecord record) {
      records.add(record);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }

  @Test
  void aLastingProblem_isSaidWhenItShows_whenItChanges_andOnceAMinute() {
    TestClock clock = new TestClock();
    List<String> lines = new ArrayList<>();
    WatchRetryLog log = new WatchRetryLog(clock, lines::add);
    String refused = "no answer from the API server: ConnectException (ClosedChannelException)";

    log.retried(refused);
    for (int i = 0; i < 20; i++) {
      clock.now = clock.now.plusSeconds(2);
      log.retried(refused);
    }
    assertThat(lines)
        .containsExactly(
            "watches: "
                + refused
                + "; fabric8 reconnects them with backoff (1 failed attempt so far)");

    clock.now = clock.now.plus(WatchRetryLog.REPEAT);
    log.retried(refused);
    log.retried("HTTP 403 Forbidden: pods is forbidden");
    log.retried("HTTP 403 Forbidden: pods is forbidden");

    assertThat(lines).hasSize(3).element(1).asString().endsWith("(22 failed attempts so far)");
    assertThat(lines.get(2))
        .isEqualTo(
            "watches: HTTP 403 Forbidden: pods is forbidden; fabric8 reconnects them with backoff"
                + " (1 failed attempt so far)");
  }

  @Test
  void fabric8sRetryRecords_areCountedAndSaidInOneLine_otherRecordsPass() {
    Logger manager = Logger.getLogger(WatchRetryLog.WATCH_MANAGER);
    Logger informers = Logger.getLogger(Informers.class.getName());
    Recorder fromFabric8 = new Recorder();
    Recorder fromCaldera = new Recorder();
    // As in a run (the tests' logging.properties quiets both).
    Level managerLevel = manager.getLevel();
    Level informersLevel = informers.getLevel();
    manager.setLevel(Level.INFO);
    informers.setLevel(Level.INFO);
    manager.addHandler(fromFabric8);
    informers.addHandler(fromCaldera);
    Counters counters = new Counters();
    WatchRetryLog.started(counters);
    try {
      // As fabric8 7.8's AbstractWatchManager logs, through slf4j.
      org.slf4j.Logger fabric8 = LoggerFactory.getLogger(WatchRetryLog.WATCH_MANAGER);
      CompletionException refused =
          new CompletionException(
              (ConnectException) new ConnectException().initCause(new ClosedChannelException()));
      fabric8.debug("Unknown Watch error received, will reconnect if possible", refused);
      for (int times = 2; times < 5; times++) {
        fabric8.info(
            "Unknown Watch error received {} times without progress, will reconnect if possible",
            times,
            refused);
      }
      fabric8.error("Exception in reconnect", new IllegalStateException("a bug"));
      // A watch its informer closed (a stop) is no failure.
      fabric8.debug(
          "Unknown Watch error received, will reconnect if possible",
          new CompletionException(new java.util.concurrent.CancellationException()));

      assertThat(counters.watchErrors()).as("the first failure, at DEBUG, too").isEqualTo(4);
      assertThat(fromFabric8.records)
          .extracting(LogRecord::getMessage)
          .containsExactly("Exception in reconnect");
      assertThat(fromCaldera.records)
          .singleElement()
          .satisfies(
              r -> {
                assertThat(r.getLevel()).isEqualTo(Level.WARNING);
                assertThat(r.getMessage())
                    .isEqualTo(
                        "watches: no answer from the API server: ConnectException"
                            + " (ClosedChannelException); fabric8 reconnects them with backoff (1"
                            + " failed attempt so far)");
                assertThat(r.getThrown()).isNull();
              });

      WatchRetryLog.stopped(counters);
      assertThat(manager.getFilter()).as("removed with the last informers").isNull();
      assertThat(manager.getLevel()).as("the level it had before").isEqualTo(Level.INFO);
    } finally {
      WatchRetryLog.stopped(counters);
      manager.removeHandler(fromFabric8);
      informers.removeHandler(fromCaldera);
      manager.setLevel(managerLevel);
      informers.setLevel(informersLevel);
    }
  }

  @Test
  void onlyTheRetryMessagesAreTaken() {
    assertThat(
            WatchRetryLog.isRetry(
                "Watch connection error received 3 times without progress, will reconnect if"
                    + " possible"))
        .isTrue();
    assertThat(WatchRetryLog.isRetry("Exception in reconnect")).isFalse();
    assertThat(WatchRetryLog.isRetry(null)).isFalse();
    assertThat(WatchRetryLog.isRetry("Watch connection error, will reconnect if possible"))
        .isTrue();
    assertThat(WatchRetryLog.isRetry("Watching pods...")).isFalse();
  }
}
