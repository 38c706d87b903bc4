package dev.caldera.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** The CPU time of a process and its descendants, as the operating system counts it. */
final class ProcessCpu {

  /**
   * Clock ticks per second of {@code /proc/PID/stat}'s times: Linux's USER_HZ, 100 on every
   * architecture the JDK runs on.
   */
  private static final long TICKS_PER_SECOND = 100;

  private ProcessCpu() {}

  /**
   * The CPU time (user and system) of {@code root} and of its descendants alive now, or empty when
   * none of it can be read. A launched command's shell and the scheduler it starts count together.
   */
  static Optional<Duration> ofTree(ProcessHandle root) {
    Optional<Duration> total = of(root);
    for (ProcessHandle child : root.descendants().toList()) {
      Optional<Duration> cpu = of(child);
      if (cpu.isPresent()) {
        total = Optional.of(total.orElse(Duration.ZERO).plus(cpu.get()));
      }
    }
    return total;
  }

  /** One process's CPU time: the JDK's reading, else {@code /proc/PID/stat}. */
  static Optional<Duration> of(ProcessHandle p) {
    Optional<Duration> cpu = p.info().totalCpuDuration();
    return cpu.isPresent() ? cpu : fromProcStat(p.pid());
  }

  /** utime + stime of {@code /proc/PID/stat} (fields 14 and 15, after the command in brackets). */
  static Optional<Duration> fromProcStat(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      return parseProcStat(stat);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  static Optional<Duration> parseProcStat(String stat) {
    int close = stat.lastIndexOf(')');
    if (close < 0) {
      return Optional.empty();
    }
    // After ") ": state is field 3, so utime (14) and stime (15) are the 12th and 13th.
    String[] f = stat.substring(close + 2).trim().split("\\s+");
    if (f.length < 13) {
      return Optional.empty();
    }
    long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
    return Optional.of(Duration.ofMillis(ticks * 1000 / TICKS_PER_SECOND));
  }
}
