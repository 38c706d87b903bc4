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

/** Prints a {@link ScenarioReport} as a table, as JSON or as YAML. */
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
}
