package dev.caldera.load;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** A scheduler that runs already: its CPU is read when its process id is given. */
final class RunningScheduler implements MeasuredScheduler {

  private final Long pid;
  private final String schedulerName;

  /**
   * @param pid its process id, or null when not known
   */
  RunningScheduler(Long pid, String schedulerName) {
    this.pid = pid;
    this.schedulerName = schedulerName;
  }

  @Override
  public boolean launched() {
    return false;
  }

  @Override
  public void start() {}

  @Override
  public Optional<Duration> cpuTime() {
    if (pid == null) {
      return Optional.empty();
    }
    return ProcessHandle.of(pid).flatMap(ProcessCpu::ofTree);
  }

  @Override
  public String describe() {
    return pid == null
        ? "the running scheduler of " + schedulerName + " (no --scheduler-pid: its CPU is not read)"
        : "the running scheduler, process " + pid;
  }

  @Override
  public Path log() {
    return null;
  }

  @Override
  public void stop() {}
}
