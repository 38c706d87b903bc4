package dev.caldera.sim.internal;

import dev.caldera.api.extension.VolumeBinding;
import dev.caldera.api.resource.Quantity;
import dev.caldera.framework.SessionResult;
import dev.caldera.sim.ScenarioReport;
import dev.caldera.sim.SessionReport;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** The human-readable report: one block per session, then a summary. */
public final class TableReport {

  private TableReport() {}

  /** Prints {@code r}; the check section only when {@code withCheck}. */
  public static void write(ScenarioReport r, PrintStream out, boolean withCheck) {
    out.println("scenario " + r.scenario() + (r.file() == null ? "" : " (" + r.file() + ")"));
    int binds = 0;
    int evictions = 0;
    int pipelined = 0;
    for (SessionReport s : r.sessions()) {
      binds += s.binds().size();
      evictions += s.evictions().size();
      pipelined += s.pipelined().size();
      out.println(
          String.format(
              Locale.ROOT,
              "session %d (%.3f ms): %s, %s, %d pipelined",
              s.index(),
              s.durationMillis(),
              plural(s.binds().size(), "bind"),
              plural(s.evictions().size(), "eviction"),
              s.pipelined().size()));
      for (SessionResult.Bind b : s.binds()) {
        row(out, "bind", b.pod() + " -> " + b.node());
        for (VolumeBinding v : b.volumes()) {
          row(
              out,
              "volume",
              "claim "
                  + v.claim()
                  + (v.provision() ? " provisioned on " + b.node() : " -> volume " + v.volume()));
        }
      }
      for (SessionResult.Eviction e : s.evictions()) {
        String forPod = e.forPod() == null || e.forPod().isEmpty() ? "" : " for " + e.forPod();
        row(out, "evict", e.pod() + " by " + e.action() + forPod);
      }
      for (SessionResult.Pipelined p : s.pipelined()) {
        row(out, "pipeline", p.pod() + " -> " + p.node());
      }
      s.podGroupPhaseChanges().forEach((pg, phase) -> row(out, "phase", pg + " -> " + phase));
      for (SessionResult.Event e : s.events()) {
        row(out, "event", e.type() + " " + e.object() + " " + e.reason() + ": " + e.message());
      }
    }
    out.println(
        "summary: "
            + plural(r.sessions().size(), "session")
            + ", "
            + plural(binds, "bind")
            + ", "
            + plural(evictions, "eviction")
            + ", "
            + pipelined
            + " pipelined");
    r.podGroupPhases().forEach((pg, phase) -> row(out, "podgroup", pg + " " + phase));
    r.queueAllocated()
        .forEach((q, allocated) -> row(out, "queue", q + " allocated " + resources(allocated)));
    if (withCheck) {
      if (r.mismatches().isEmpty()) {
        out.println("check: passed");
      } else {
        out.println("check: failed, " + plural(r.mismatches().size(), "mismatch"));
        r.mismatches().forEach(m -> out.println("  " + m));
      }
    }
  }

  private static void row(PrintStream out, String label, String text) {
    out.println(String.format(Locale.ROOT, "  %-9s %s", label, text));
  }

  private static String resources(Map<String, Quantity> r) {
    if (r.isEmpty()) {
      return "nothing";
    }
    return r.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .map(e -> e.getKey() + ": " + e.getValue())
        .collect(Collectors.joining(", ", "{", "}"));
  }

  private static String plural(int n, String word) {
    return n + " " + (n == 1 ? word : word.endsWith("h") ? word + "es" : word + "s");
  }
}
