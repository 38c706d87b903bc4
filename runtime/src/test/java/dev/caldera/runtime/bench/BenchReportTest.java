package dev.caldera.runtime.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchReportTest {

  private static final SessionMeasurement SESSION =
      new SessionMeasurement(1, 1234.56, 10000, 0, 8100.26, 10000, 1000.0, 250.5, 998.2);

  private static final BenchResult RESULT =
      new BenchResult(
          Workload.synthetic(1000, 10000, 10, 10, 1, 0),
          List.of(SESSION),
          1234.56,
          10000,
          8100.26,
          0,
          100L * 1024 * 1024,
          512L * 1024 * 1024,
          "0123456789abcdef");

  private static String print(java.util.function.Consumer<PrintStream> printer) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    printer.accept(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void table_describesTheWorkloadAndEverySession() {
    String text =
        print(
            out -> {
              BenchReport.tableHeader(RESULT.workload(), out);
              BenchReport.tableRow(SESSION, out);
              BenchReport.tableSummary(RESULT, out);
            });

    assertThat(text)
        .contains("1000 nodes, 10000 pods (1000 jobs x 10 tasks, 10 queues), 1 session, 0 warm-up");
    assertThat(text.lines().toList().get(2).trim().split("\\s+"))
        .containsExactly(
            "1", "1234.6", "10000", "0", "8100.3", "10000", "1000.0", "250.5", "998.2");
    assertThat(text)
        .contains("summary: 10000 pods bound in 1234.6 ms (8100.3 pods/s), 0 pods pending")
        .contains("peak 512.0 MiB", "100.0 MiB after setup")
        .contains("binds digest: 0123456789abcdef");
  }

  @Test
  void json_hasTheSameFieldsAsTheTable() throws Exception {
    JsonNode root = new ObjectMapper().readTree(print(out -> BenchReport.json(RESULT, out)));

    assertThat(root.at("/workload/nodes").asInt()).isEqualTo(1000);
    assertThat(root.at("/workload/scenario").isMissingNode()).isTrue();
    assertThat(root.at("/sessions/0/podsBound").asInt()).isEqualTo(10000);
    assertThat(root.at("/sessions/0/avgNodesScoredPerTask").asDouble()).isEqualTo(250.5);
    assertThat(root.at("/sessions/0/avgNodesReusedPerTask").asDouble()).isEqualTo(998.2);
    assertThat(root.at("/podsPending").asInt()).isZero();
    assertThat(root.at("/peakHeapBytes").asLong()).isEqualTo(512L * 1024 * 1024);
    assertThat(root.at("/bindsDigest").asText()).isEqualTo("0123456789abcdef");
  }

  @Test
  void workload_describesAScenario() {
    assertThat(Workload.scenario("demo", 3, 1).describe())
        .isEqualTo("scenario demo, 3 sessions, 1 warm-up");
  }
}
