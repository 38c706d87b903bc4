package dev.caldera.load;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The scheduler whose work a run measures: one the run launches ({@code --launch}), one already
 * running ({@code --scheduler-pid}, or unknown), or, in tests, one in the test's own process.
 * Called from the run's thread and, for {@link #stop}, from the shutdown hook.
 */
interface MeasuredScheduler {

  /** Whether {@link #start} starts it; false when it runs already. */
  boolean launched();

  /** Starts it, if the run launches it; called once. */
  void start() throws LoadException;

  /** The CPU time it has used so far, or empty when that is not known. */
  Optional<Duration> cpuTime();

  /** What it is, for the report. */
  String describe();

  /** The file its output goes to, or null. */
  Path log();

  /** Why it no longer runs, when the run launched it and it ended; null while it runs. */
  default String ended() {
    return null;
  }

  /** Stops what {@link #start} started; does nothing otherwise, and the second time. */
  void stop();

  /** A scheduler the run knows nothing about but its name. */
  static MeasuredScheduler unknown(String schedulerName) {
    return new RunningScheduler(null, schedulerName);
  }
}
