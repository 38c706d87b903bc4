package dev.caldera.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.caldera.api.resource.Quantity;
import dev.caldera.framework.SessionResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReportWriterTest {

  private static ScenarioReport report(List<String> mismatches) {
    SessionReport s1 =
        new SessionReport(
            1,
            1.23456,
            List.of(new SessionResult.Bind("ns1/p2", "n1")),
            List.of(new SessionResult.Eviction("ns1/p1", "reclaim", "ns1/p2")),
            List.of(new SessionResult.Pipelined("ns1/p3", "n1")),
            Map.of("ns1/pg1", "Running"),
            List.of(new SessionResult.Event("Pod", "ns1/p3", "Warning", "Unschedulable", "no")),
            new SessionResult.SessionStats(1, 2, 3, 1.2));
    SessionReport s2 =
        new SessionReport(
            2,
            0.5,
            List.of(),
            List.of(new SessionResult.Eviction("ns1/p4", "preempt", "")),
            List.of(),
            Map.of(),
            List.of(),
            new SessionResult.SessionStats(0, 0, 0, 0.5));
    return new ScenarioReport(
        "demo",
        Path.of("demo.yaml"),
        List.of(s1, s2),
        Map.of("ns1/pg1", "Running"),
        Map.of("q1", Map.of("cpu", Quantity.parse("1500m"))),
        mismatches);
  }

  private static String print(ScenarioReport r, ReportFormat f, boolean check) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    ReportWriter.write(r, f, out, check);
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void json_hasTheFormatsShape() throws Exception {
    String text =
        print(report(List.of("bind ns1/p2: expected n1, got nothing")), ReportFormat.JSON, true);
    JsonNode root = new ObjectMapper().readTree(text);

    assertThat(root.propertyStream().map(Map.Entry::getKey))
        .containsExactly("scenario", "sessions", "check");
    assertThat(root.get("scenario").asText()).isEqualTo("demo");
    JsonNode s = root.get("sessions").get(0);
    assertThat(s.propertyStream().map(Map.Entry::getKey))
        .containsExactly(
            "index", "durationMillis", "binds", "evictions", "pipelined", "podGroups", "events");
    assertThat(s.get("index").asInt()).isEqualTo(1);
    assertThat(s.get("durationMillis").asDouble()).isEqualTo(1.235);
    assertThat(s.get("binds").toString()).isEqualTo("[{\"pod\":\"ns1/p2\",\"node\":\"n1\"}]");
    assertThat(s.get("evictions").toString())
        .isEqualTo("[{\"pod\":\"ns1/p1\",\"action\":\"reclaim\",\"for\":\"ns1/p2\"}]");
    assertThat(s.get("pipelined").toString()).isEqualTo("[{\"pod\":\"ns1/p3\",\"node\":\"n1\"}]");
    assertThat(s.get("podGroups").toString())
        .isEqualTo("[{\"podGroup\":\"ns1/pg1\",\"phase\":\"Running\"}]");
    assertThat(s.get("events").toString())
        .isEqualTo(
            "[{\"object\":\"ns1/p3\",\"type\":\"Warning\",\"reason\":\"Unschedulable\","
                + "\"message\":\"no\"}]");
    assertThat(root.get("sessions").get(1).get("evictions").get(0).get("for").isNull()).isTrue();
    assertThat(root.get("check").toString())
        .isEqualTo("{\"passed\":false,\"mismatches\":[\"bind ns1/p2: expected n1, got nothing\"]}");
  }

  @Test
  void json_withoutCheck_leavesCheckOut() throws Exception {
    JsonNode root = new ObjectMapper().readTree(print(report(List.of()), ReportFormat.JSON, false));

    assertThat(root.has("check")).isFalse();
    assertThat(root.get("sessions")).hasSize(2);
  }

  @Test
  void yaml_isTheSameTreeAsJson() throws Exception {
    ScenarioReport r = report(List.of());
    JsonNode json = new ObjectMapper().readTree(print(r, ReportFormat.JSON, true));
    JsonNode yaml = new ObjectMapper(new YAMLFactory()).readTree(print(r, ReportFormat.YAML, true));

    assertThat(yaml).isEqualTo(json);
    assertThat(json.get("check").get("passed").asBoolean()).isTrue();
  }

  @Test
  void table_listsDecisionsPerSessionThenSummaryAndCheck() {
    String text = print(report(List.of("evictCount: expected 0, got 2")), ReportFormat.TABLE, true);

    assertThat(text.lines())
        .containsSubsequence(
            "scenario demo (demo.yaml)",
            "session 1 (1.235 ms): 1 bind, 1 eviction, 1 pipelined",
            "  bind      ns1/p2 -> n1",
            "  evict     ns1/p1 by reclaim for ns1/p2",
            "  pipeline  ns1/p3 -> n1",
            "  phase     ns1/pg1 -> Running",
            "  event     Warning ns1/p3 Unschedulable: no",
            "session 2 (0.500 ms): 0 binds, 1 eviction, 0 pipelined",
            "  evict     ns1/p4 by preempt",
            "summary: 2 sessions, 1 bind, 2 evictions, 1 pipelined",
            "  podgroup  ns1/pg1 Running",
            "  queue     q1 allocated {cpu: 1500m}",
            "check: failed, 1 mismatch",
            "  evictCount: expected 0, got 2");
  }
}
