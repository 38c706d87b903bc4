package dev.caldera.load;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A scheduler the run starts ({@code --launch}): a shell command, run by {@code sh -c} with its
 * output (stdout and stderr) in a temporary file. Its CPU is that of the shell and everything it
 * started; stopping it stops all of them (SIGTERM, then SIGKILL after {@link #STOP_WAIT}).
 */
final class LaunchedScheduler implements MeasuredScheduler {

  static final Duration STOP_WAIT = Duration.ofSeconds(10);

  private final String command;
  private volatile Process process;
  private volatile Path log;
  private volatile Duration lastCpu;

  LaunchedScheduler(String command) {
    this.command = command;
  }

  @Override
  public boolean launched() {
    return true;
  }

  @Override
  public synchronized void start() throws LoadException {
    if (process != null) {
      return;
    }
    try {
      log = Files.createTempFile("caldera-load-scheduler-", ".log");
      process =
          new ProcessBuilder("sh", "-c", command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .start();
    } catch (IOException e) {
      throw new LoadException("--launch: cannot start the scheduler: " + Errors.describe(e), e);
    }
  }

  /**
   * While it runs, the CPU of its process tree; after it ended, the last reading (a process that is
   * gone has no CPU time to read).
   */
  @Override
  public Optional<Duration> cpuTime() {
    Process p = process;
    if (p == null) {
      return Optional.empty();
    }
    if (p.isAlive()) {
      ProcessCpu.ofTree(p.toHandle()).ifPresent(cpu -> lastCpu = cpu);
    }
    return Optional.ofNullable(lastCpu);
  }

  @Override
  public String ended() {
    Process p = process;
    return p == null || p.isAlive() ? null : "the scheduler exited with code " + p.exitValue();
  }

  @Override
  public String describe() {
    return "launched: " + command;
  }

  @Override
  public Path log() {
    return log;
  }

  @Override
  public synchronized void stop() {
    Process p = process;
    if (p == null || !p.isAlive() && p.descendants().findAny().isEmpty()) {
      return;
    }
    cpuTime();
    // The descendants first, named before the shell goes: once it has, they are no longer its.
    List<ProcessHandle> tree = p.descendants().toList();
    tree.forEach(ProcessHandle::destroy);
    p.destroy();
    long deadline = System.nanoTime() + STOP_WAIT.toNanos();
    for (ProcessHandle h : tree) {
      waitFor(h, deadline);
    }
    try {
      if (!p.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
        p.destroyForcibly();
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private static void waitFor(ProcessHandle h, long deadline) {
    try {
      h.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      h.destroyForcibly();
    } catch (Exception e) {
      h.destroyForcibly();
    }
  }
}
