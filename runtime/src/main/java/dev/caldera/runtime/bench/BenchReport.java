package dev.caldera.runtime.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.Locale;

/**
 * Prints benchmark results as a table (line by line, as sessions finish) or as one JSON document.
 */
public final class BenchReport {

  private static final String ROW = "%7s %10s %10s %8s %10s %9s %14s %12s %12s%n";

  private BenchReport() {}

  /** The table's title and column header. */
  public static void tableHeader(Workload workload, PrintStream out) {
    out.println("caldera bench: " + workload.describe());
    out.printf(
        Locale.ROOT,
        ROW,
        "session",
        "time ms",
        "pods bound",
        "evicted",
        "pods/s",
        "tasks",
        "filtered/task",
        "scored/task",
        "reused/task");
  }

  /** One table row. */
  public static void tableRow(SessionMeasurement m, PrintStream out) {
    out.printf(
        Locale.ROOT,
        ROW,
        m.index(),
        fixed(m.millis()),
        m.podsBound(),
        m.podsEvicted(),
        fixed(m.podsPerSecond()),
        m.tasksConsidered(),
        fixed(m.avgNodesFilteredPerTask()),
        fixed(m.avgNodesScoredPerTask()),
        fixed(m.avgNodesReusedPerTask()));
  }

  /** The summary lines after the rows. */
  public static void tableSummary(BenchResult r, PrintStream out) {
    out.printf(
        Locale.ROOT,
        "summary: %d pods bound in %s ms (%s pods/s), %d pods pending%n",
        r.podsBound(),
        fixed(r.totalMillis()),
        fixed(r.podsPerSecond()),
        r.podsPending());
    out.printf(
        Locale.ROOT,
        "heap: peak %s MiB during the sessions, %s MiB after setup (after a full GC)%n",
        fixed(mib(r.peakHeapBytes())),
        fixed(mib(r.heapAfterSetupBytes())));
    out.println("binds digest: " + r.bindsDigest());
  }

  /** The whole result as one JSON document. */
  public static void json(BenchResult r, PrintStream out) {
    ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    try {
      out.println(mapper.writeValueAsString(r));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String fixed(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  private static double mib(long bytes) {
    return bytes / (1024.0 * 1024.0);
  }
}
