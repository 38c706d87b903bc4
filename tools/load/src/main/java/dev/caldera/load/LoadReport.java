package dev.caldera.load;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;

/**
 * What a run measured, as printed (a table, or one JSON document with these fields). Times are in
 * seconds; a figure that does not apply or could not be measured is null.
 *
 * @param mode {@code stream} (a paced stream) or {@code backlog} (pods first, then the launch)
 * @param windowStart what the measured window starts with: the stream's start, or the launch
 * @param requestedRate the stream's pods per second; null for a backlog
 * @param creationSeconds from the first create request to the last
 * @param achievedCreationRate pods per second from the first create request to the last
 * @param podsNeverBound created but not seen bound by the end of the drain
 * @param podsBoundBeforeWindowStart bound before the launch: another scheduler serves the pods'
 *     schedulerName (counted in {@code podsBound}, not in the window's figures)
 * @param throughput pods bound per second from the window's start to the last bind
 * @param firstBindSeconds from the window's start to the first bind
 * @param allBoundSeconds from the launch until every created pod was bound (backlog only)
 * @param bindRateFirstToLast pods bound per second from the first bind to the last (backlog)
 * @param boundPerSecond pods seen bound in each second from the window's start
 * @param schedulerCpuSeconds the scheduler's CPU time over {@code cpuWindowSeconds}
 * @param cpuWindowSeconds from the window's start until every pod was bound, or the drain ended
 */
record LoadReport(
    String mode,
    String workload,
    String apiServer,
    String namespace,
    String nodes,
    String scheduler,
    String windowStart,
    int podsPlanned,
    int podsCreated,
    int createFailures,
    String firstCreateFailure,
    Double requestedRate,
    Double creationSeconds,
    Double achievedCreationRate,
    int podsBound,
    int podsNeverBound,
    int podsBoundBeforeWindowStart,
    double drainSeconds,
    Double throughput,
    Latency createToBound,
    Double firstBindSeconds,
    Double allBoundSeconds,
    Double bindRateFirstToLast,
    List<Integer> boundPerSecond,
    Double schedulerCpuSeconds,
    Double cpuWindowSeconds,
    Double schedulerCpuSecondsPer1000Bound,
    String schedulerEnded,
    String schedulerLog,
    List<String> cleanupProblems) {

  /** Creation-to-bound latency of the bound pods. */
  record Latency(int pods, double p50, double p90, double p99, double max) {

    /** The percentiles of {@code nanos}, or null when there are none. */
    static Latency of(long[] nanos) {
      if (nanos.length == 0) {
        return null;
      }
      Percentiles p = Percentiles.of(nanos);
      return new Latency(
          p.count(), seconds(p.get(50)), seconds(p.get(90)), seconds(p.get(99)), seconds(p.max()));
    }
  }

  LoadReport {
    boundPerSecond = List.copyOf(boundPerSecond);
    cleanupProblems = List.copyOf(cleanupProblems);
  }

  /** The same report with these cleanup problems. */
  LoadReport withCleanupProblems(List<String> problems) {
    return new LoadReport(
        mode,
        workload,
        apiServer,
        namespace,
        nodes,
        scheduler,
        windowStart,
        podsPlanned,
        podsCreated,
        createFailures,
        firstCreateFailure,
        requestedRate,
        creationSeconds,
        achievedCreationRate,
        podsBound,
        podsNeverBound,
        podsBoundBeforeWindowStart,
        drainSeconds,
        throughput,
        createToBound,
        firstBindSeconds,
        allBoundSeconds,
        bindRateFirstToLast,
        boundPerSecond,
        schedulerCpuSeconds,
        cpuWindowSeconds,
        schedulerCpuSecondsPer1000Bound,
        schedulerEnded,
        schedulerLog,
        problems);
  }

  boolean backlog() {
    return mode.equals("backlog");
  }

  /** The report as a table, one figure a line. */
  void printTable(PrintStream out) {
    out.println("caldera load: " + workload);
    line(out, "API server", apiServer + ", namespace " + namespace);
    line(out, "nodes", nodes);
    line(out, "scheduler", scheduler);
    String created = podsCreated + " of " + podsPlanned;
    if (creationSeconds != null) {
      created += " in " + fixed(creationSeconds, 2) + " s";
    }
    if (achievedCreationRate != null) {
      created += ": " + fixed(achievedCreationRate, 1) + " pods/s";
    }
    if (requestedRate != null) {
      created += " (asked " + number(requestedRate) + ")";
    } else {
      created += " (the backlog, before the launch)";
    }
    line(out, "pods created", created);
    if (createFailures > 0) {
      line(out, "create failures", createFailures + "; the first: " + firstCreateFailure);
    }
    String after = backlog() ? "the launch" : "the stream";
    line(
        out,
        "pods bound",
        podsBound
            + " of "
            + podsCreated
            + (podsNeverBound == 0 ? ", none left unbound" : "; " + podsNeverBound + " never bound")
            + " (drain: up to "
            + number(drainSeconds)
            + " s after "
            + after
            + ")");
    if (podsBoundBeforeWindowStart > 0) {
      line(
          out,
          "warning",
          podsBoundBeforeWindowStart
              + " pods were bound before "
              + windowStart
              + ": another scheduler serves their schedulerName");
    }
    line(
        out,
        "throughput",
        throughput == null
            ? "no pod bound"
            : fixed(throughput, 1) + " bound pods/s from " + windowStart + " to the last bind");
    if (firstBindSeconds != null) {
      line(out, "first bind", fixed(firstBindSeconds, 2) + " s after " + windowStart);
    }
    if (backlog()) {
      line(
          out,
          "all bound",
          allBoundSeconds == null
              ? "not within the drain"
              : fixed(allBoundSeconds, 2) + " s after the launch");
      if (bindRateFirstToLast != null) {
        line(
            out,
            "bind rate",
            fixed(bindRateFirstToLast, 1) + " pods/s from the first bind to the last");
      }
    }
    line(
        out,
        "create to bound",
        createToBound == null
            ? "no pod bound"
            : "p50 "
                + fixed(createToBound.p50(), 3)
                + " s, p90 "
                + fixed(createToBound.p90(), 3)
                + " s, p99 "
                + fixed(createToBound.p99(), 3)
                + " s, max "
                + fixed(createToBound.max(), 3)
                + " s ("
                + createToBound.pods()
                + " pods)");
    timeline(out);
    line(out, "scheduler CPU", cpu());
    if (schedulerEnded != null) {
      line(out, "scheduler ended", schedulerEnded + " before the run's end; see its log");
    }
    if (schedulerLog != null) {
      line(out, "scheduler log", schedulerLog);
    }
    if (cleanupProblems.isEmpty()) {
      line(out, "cleanup", "everything the run created was deleted");
    } else {
      for (String p : cleanupProblems) {
        line(out, "cleanup", p);
      }
    }
  }

  private String cpu() {
    if (schedulerCpuSeconds == null) {
      return "not known (--launch or --scheduler-pid names the scheduler's process)";
    }
    String s =
        fixed(schedulerCpuSeconds, 2)
            + " s over "
            + fixed(cpuWindowSeconds, 2)
            + " s from "
            + windowStart;
    return schedulerCpuSecondsPer1000Bound == null
        ? s
        : s + ": " + fixed(schedulerCpuSecondsPer1000Bound, 2) + " s per 1,000 bound pods";
  }

  private static final int PER_LINE = 20;

  /** Twenty seconds a line: "12 98 101 ... (seconds 1-20 from the start of the stream)". */
  private void timeline(PrintStream out) {
    for (int i = 0; i < boundPerSecond.size(); i += PER_LINE) {
      int end = Math.min(boundPerSecond.size(), i + PER_LINE);
      StringBuilder sb = new StringBuilder();
      for (int j = i; j < end; j++) {
        sb.append(j == i ? "" : " ").append(boundPerSecond.get(j));
      }
      sb.append(end == i + 1 ? "  (second " + end : "  (seconds " + (i + 1) + "-" + end);
      sb.append(i == 0 ? " from " + windowStart + ")" : ")");
      line(out, i == 0 ? "bound per second" : "", sb.toString());
    }
  }

  /** The report as one JSON document. */
  void printJson(PrintStream out) {
    ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    try {
      out.println(mapper.writeValueAsString(this));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void line(PrintStream out, String label, String text) {
    out.printf(Locale.ROOT, "%-18s %s%n", label.isEmpty() ? "" : label + ":", text);
  }

  static double seconds(long nanos) {
    return nanos / 1e9;
  }

  static String fixed(double v, int decimals) {
    return String.format(Locale.ROOT, "%." + decimals + "f", v);
  }

  /** A number with no more decimals than it needs (at most three): 100, 0.5, 33.333. */
  static String number(double v) {
    return BigDecimal.valueOf(v)
        .setScale(3, RoundingMode.HALF_UP)
        .stripTrailingZeros()
        .toPlainString();
  }
}
