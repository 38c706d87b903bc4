package dev.caldera.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.caldera.sim.internal.ReportTree;
import dev.caldera.sim.internal.TableReport;
import java.io.PrintStream;
import java.io.UncheckedIOException;

/** Prints a {@link ScenarioReport} or a {@link ScenarioDiff} as a table, as JSON or as YAML. */
public final class ReportWriter {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final ObjectMapper YAML =
      new ObjectMapper(
          YAMLFactory.builder()
              .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
              .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
              .disable(YAMLGenerator.Feature.SPLIT_LINES)
              .build());

  private ReportWriter() {}

  /** Prints {@code r} with its check section ({@code passed} and the mismatches). */
  public static void write(ScenarioReport r, ReportFormat format, PrintStream out) {
    write(r, format, out, true);
  }

  /**
   * Prints {@code r}.
   *
   * @param withCheck whether to print the check section; leave it out for a run that was not
   *     checked against {@code expect:}
   */
  public static void write(
      ScenarioReport r, ReportFormat format, PrintStream out, boolean withCheck) {
    try {
      switch (format) {
        case TABLE -> TableReport.write(r, out, withCheck);
        case JSON -> out.println(JSON.writeValueAsString(ReportTree.of(r, withCheck)));
        case YAML -> out.print(YAML.writeValueAsString(ReportTree.of(r, withCheck)));
        default -> throw new IllegalArgumentException(String.valueOf(format));
      }
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
    out.flush();
  }

  /**
   * Prints {@code d}: as a table one line per difference under a heading per kind, then a line with
   * the count ({@code no changes} when there are none).
   */
  public static void write(ScenarioDiff d, ReportFormat format, PrintStream out) {
    try {
      switch (format) {
        case TABLE -> DiffTable.write(d, out);
        case JSON -> out.println(JSON.writeValueAsString(d.toTree()));
        case YAML -> out.print(YAML.writeValueAsString(d.toTree()));
        default -> throw new IllegalArgumentException(String.valueOf(format));
      }
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
    out.flush();
  }

  /** The human form of a diff. */
  private static final class DiffTable {
    static void write(ScenarioDiff d, PrintStream out) {
      if (!d.placements().isEmpty()) {
        out.println("bound differently:");
        d.placements()
            .forEach(
                p ->
                    out.println(
                        "  " + p.pod() + ": " + node(p.before()) + " -> " + node(p.after())));
      }
      if (!d.evictionsAdded().isEmpty()) {
        out.println("evictions added:");
        d.evictionsAdded().forEach(e -> eviction(d, e, out));
      }
      if (!d.evictionsRemoved().isEmpty()) {
        out.println("evictions removed:");
        d.evictionsRemoved().forEach(e -> eviction(d, e, out));
      }
      if (!d.queueAllocations().isEmpty()) {
        out.println("queue allocated:");
        d.queueAllocations()
            .forEach(
                a ->
                    out.println(
                        "  "
                            + a.queue()
                            + " "
                            + a.resource()
                            + ": "
                            + ScenarioDiff.amount(a.before())
                            + " -> "
                            + ScenarioDiff.amount(a.after())));
      }
      if (!d.podGroupPhases().isEmpty()) {
        out.println("pod group phase:");
        d.podGroupPhases()
            .forEach(
                p -> out.println("  " + p.podGroup() + ": " + p.before() + " -> " + p.after()));
      }
      out.println(d.changed() ? d.size() + " changes" : "no changes");
    }

    private static String node(String n) {
      return n == null ? "(not bound)" : n;
    }

    private static void eviction(
        ScenarioDiff d, dev.caldera.framework.SessionResult.Eviction e, PrintStream out) {
      out.println(
          "  "
              + e.pod()
              + " ("
              + e.action()
              + (e.forPod() == null || e.forPod().isEmpty() ? "" : ", for " + e.forPod())
              + ")");
      ScenarioDiff.PolicyReason reason = d.policyReasons().get(e.pod());
      if (reason != null) {
        out.println("    before: " + (reason.before() == null ? "-" : reason.before()));
        out.println("    after:  " + (reason.after() == null ? "-" : reason.after()));
      }
    }
  }
}
