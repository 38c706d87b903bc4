package dev.caldera.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Turns a run's per-pod times and what it knows about itself into its {@link LoadReport}. */
final class Measurement {

  private static final long SECOND = 1_000_000_000L;

  /**
   * What the run knows besides the pods' times.
   *
   * @param windowStart what the measured window starts with, e.g. "the launch"
   * @param windowStartNanos when it started ({@link System#nanoTime})
   * @param requestedRate the stream's rate, null for a backlog
   * @param schedulerCpu the scheduler's CPU over the window, null when not known
   * @param cpuWindowNanos how long the CPU was measured, from the window's start
   * @param schedulerEnded why a launched scheduler no longer ran at the end, or null
   */
  record Facts(
      String mode,
      String workload,
      String apiServer,
      String namespace,
      String nodes,
      String scheduler,
      String windowStart,
      long windowStartNanos,
      Double requestedRate,
      Duration drain,
      Duration schedulerCpu,
      long cpuWindowNanos,
      String schedulerEnded,
      String schedulerLog) {}

  private Measurement() {}

  static LoadReport report(Facts f, PodTimes times) {
    int n = times.size();
    int created = 0;
    int bound = 0;
    int neverBound = 0;
    int boundBeforeWindow = 0;
    long firstSent = Long.MAX_VALUE;
    long lastSent = Long.MIN_VALUE;
    long firstBind = Long.MAX_VALUE;
    long lastBind = Long.MIN_VALUE;
    List<Long> latencies = new ArrayList<>();
    List<Long> windowBinds = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (!times.isCreated(i)) {
        continue;
      }
      created++;
      long sent = times.sentAt(i);
      if (sent != 0) {
        firstSent = Math.min(firstSent, sent);
        lastSent = Math.max(lastSent, sent);
      }
      if (!times.isBound(i)) {
        neverBound++;
        continue;
      }
      bound++;
      long at = times.boundAt(i);
      if (sent != 0) {
        latencies.add(at - sent);
      }
      if (at < f.windowStartNanos()) {
        boundBeforeWindow++;
        continue;
      }
      windowBinds.add(at);
      firstBind = Math.min(firstBind, at);
      lastBind = Math.max(lastBind, at);
    }
    boolean anySent = firstSent != Long.MAX_VALUE;
    Double creationSeconds = anySent ? seconds(lastSent - firstSent) : null;
    Double achieved =
        created > 1 && lastSent > firstSent ? (created - 1) / seconds(lastSent - firstSent) : null;
    boolean anyBind = !windowBinds.isEmpty();
    int inWindow = windowBinds.size();
    Double throughput =
        anyBind && lastBind > f.windowStartNanos()
            ? inWindow / seconds(lastBind - f.windowStartNanos())
            : null;
    Double firstBindSeconds = anyBind ? seconds(firstBind - f.windowStartNanos()) : null;
    boolean backlog = f.mode().equals("backlog");
    Double allBound =
        backlog && anyBind && neverBound == 0 && boundBeforeWindow == 0
            ? seconds(lastBind - f.windowStartNanos())
            : null;
    Double bindRate =
        backlog && inWindow > 1 && lastBind > firstBind
            ? (inWindow - 1) / seconds(lastBind - firstBind)
            : null;
    Double cpu = f.schedulerCpu() == null ? null : f.schedulerCpu().toNanos() / 1e9;
    Double cpuPer1000 = cpu != null && bound > 0 ? cpu / bound * 1000 : null;
    return new LoadReport(
        f.mode(),
        f.workload(),
        f.apiServer(),
        f.namespace(),
        f.nodes(),
        f.scheduler(),
        f.windowStart(),
        n,
        created,
        times.failures(),
        times.firstFailure(),
        f.requestedRate(),
        creationSeconds,
        achieved,
        bound,
        neverBound,
        boundBeforeWindow,
        f.drain().toNanos() / 1e9,
        throughput,
        LoadReport.Latency.of(latencies.stream().mapToLong(Long::longValue).toArray()),
        firstBindSeconds,
        allBound,
        bindRate,
        perSecond(windowBinds, f.windowStartNanos()),
        cpu,
        cpu == null ? null : seconds(f.cpuWindowNanos()),
        cpuPer1000,
        f.schedulerEnded(),
        f.schedulerLog(),
        List.of());
  }

  /** How many of {@code binds} fall in each whole second from {@code start}, up to the last. */
  static List<Integer> perSecond(List<Long> binds, long start) {
    if (binds.isEmpty()) {
      return List.of();
    }
    long last = binds.stream().mapToLong(Long::longValue).max().getAsLong();
    int[] slots = new int[(int) ((last - start) / SECOND) + 1];
    for (long at : binds) {
      slots[(int) ((at - start) / SECOND)]++;
    }
    List<Integer> out = new ArrayList<>(slots.length);
    for (int s : slots) {
      out.add(s);
    }
    return out;
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }
}
