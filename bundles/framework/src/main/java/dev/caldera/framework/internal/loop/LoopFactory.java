package dev.caldera.framework.internal.loop;

import dev.caldera.api.host.PolicyChecker;
import dev.caldera.framework.ClusterSource;
import dev.caldera.framework.ClusterWriter;
import dev.caldera.framework.PluginRegistry;
import dev.caldera.framework.loop.LoopEvent;
import dev.caldera.framework.loop.QueueInsight;
import dev.caldera.framework.loop.SchedulerMonitor;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;

/** Assembles and starts a {@link SchedulingLoop} with its conf file, policies and log. */
public final class LoopFactory {

  /** How long stopping waits for the session in flight. */
  static final Duration STOP_TIMEOUT = Duration.ofMinutes(2);

  /**
   * How long stopping then waits for the cluster to answer the writes in flight, so that the last
   * line counts the binds and evictions it accepted (well within a pod's 30 s grace period).
   */
  static final Duration WRITES_TIMEOUT = Duration.ofSeconds(10);

  private LoopFactory() {}

  /**
   * @param policies null when no policies directory is watched
   * @param debounce how long after work arrived a session starts; null for every period only
   * @param maxSessions 0 for no limit
   * @param statusInterval zero for no status lines
   * @param logFile null for no log file
   * @param logFormat {@code text} or {@code json}
   * @param logMaxBytes the log file's size at which it is rotated
   * @param logKeep how many rotated log files are kept
   * @param console null for no console output
   */
  public record Options(
      Path conf,
      Path policies,
      Duration period,
      Duration debounce,
      long maxSessions,
      Duration statusInterval,
      Path logFile,
      String logFormat,
      long logMaxBytes,
      int logKeep,
      PrintStream console,
      boolean echoSessions) {}

  /** A started loop. */
  public static final class Running {
    private final SchedulingLoop loop;
    private final LoopState state;
    private final RunLog log;
    private final ClusterWriter writer;

    Running(SchedulingLoop loop, LoopState state, RunLog log, ClusterWriter writer) {
      this.loop = loop;
      this.state = state;
      this.log = log;
      this.writer = writer;
    }

    /** See {@link SchedulingLoop#shuttingDown}. */
    public void shuttingDown(java.util.function.BooleanSupplier shuttingDown) {
      loop.shuttingDown(shuttingDown);
    }

    /** What the loop reports. */
    public SchedulerMonitor monitor() {
      return state;
    }

    /** Where pending pod groups stand. */
    public QueueInsight insight() {
      return state.board();
    }

    /**
     * Lets the session in flight finish and the cluster answer its writes, then stops; logs a last
     * line.
     */
    public void stop() {
      boolean inTime = loop.stop(STOP_TIMEOUT);
      boolean answered = awaitWrites();
      var m = state.metrics();
      state.event(
          LoopEvent.normal(
              "SchedulerStopped",
              "after "
                  + m.sessions()
                  + " sessions: "
                  + m.binds()
                  + " binds, "
                  + m.evictions()
                  + " evictions"
                  + (inTime ? "" : " (the session in flight did not end in time)")
                  + (answered
                      ? ""
                      : " (writes still unanswered after " + WRITES_TIMEOUT.toSeconds() + " s)")));
      log.close();
    }

    private boolean awaitWrites() {
      try {
        return writer == null || writer.awaitApplied(WRITES_TIMEOUT);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
  }

  /** Starts a loop; its first cycle runs at once on a thread of its own. */
  public static Running start(
      Options o,
      PluginRegistry registry,
      ClusterSource source,
      ClusterWriter writer,
      Supplier<PolicyChecker> checker,
      Runnable onFinished)
      throws IOException {
    RunLog log =
        new RunLog(
            o.console(),
            o.logFile(),
            o.echoSessions(),
            new RunLog.Settings(RunLog.Format.parse(o.logFormat()), o.logMaxBytes(), o.logKeep()),
            Clock.systemUTC());
    LoopState state = new LoopState(log, writer);
    LastGoodState lastGood =
        new LastGoodState(LastGoodState.beside(o.conf(), o.logFile()), state::event);
    LastGoodState.State previous = lastGood.load();
    ConfFile conf = new ConfFile(o.conf(), state::event, lastGood, previous.conf());
    PolicyDirectory policies =
        o.policies() == null
            ? null
            : new PolicyDirectory(o.policies(), state::event, lastGood, previous.policies());
    SchedulingLoop loop =
        new SchedulingLoop(
            registry,
            source,
            writer,
            conf,
            policies,
            checker,
            state,
            new SchedulingLoop.Settings(
                o.period(), o.debounce(), o.maxSessions(), o.statusInterval()),
            Clock.systemUTC(),
            onFinished);
    loop.start();
    return new Running(loop, state, log, writer);
  }
}
