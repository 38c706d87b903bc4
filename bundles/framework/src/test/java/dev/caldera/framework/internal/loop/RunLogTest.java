package dev.caldera.framework.internal.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.caldera.framework.loop.LoopEvent;
import dev.caldera.framework.loop.SessionRecord;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunLogTest {

  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-11-24T10:15:30.123Z"), ZoneOffset.UTC);

  @TempDir Path dir;

  private final ByteArrayOutputStream console = new ByteArrayOutputStream();

  private RunLog log(RunLog.Format format, long maxBytes, int keep) throws Exception {
    return new RunLog(
        new PrintStream(console, true, StandardCharsets.UTF_8),
        dir.resolve("log/caldera.log"),
        true,
        new RunLog.Settings(format, maxBytes, keep),
        CLOCK);
  }

  @Test
  void text_oneLinePerEvent_withIsoTimestampLevelAndLogger() throws Exception {
    try (RunLog log = log(RunLog.Format.TEXT, 1 << 20, 5)) {
      log.event(LoopEvent.warning("SchedulingHeld", "the conf names \"quota\"\nwhich is missing"));
      log.session("session 1 (u) 1.0ms binds=0 evictions=0 pipelined=0");
    }

    List<String> lines = Files.readAllLines(dir.resolve("log/caldera.log"));
    assertThat(lines)
        .containsExactly(
            "2026-11-24T10:15:30.123Z WARN  caldera.events SchedulingHeld: the conf names"
                + " \"quota\"\\nwhich is missing",
            "2026-11-24T10:15:30.123Z INFO  caldera.session session 1 (u) 1.0ms binds=0"
                + " evictions=0 pipelined=0");
    assertThat(console.toString(StandardCharsets.UTF_8).lines()).containsExactlyElementsOf(lines);
  }

  @Test
  void text_escapesControlAndBidiCharactersFromTheCluster() throws Exception {
    try (RunLog log = log(RunLog.Format.TEXT, 1 << 20, 5)) {
      log.event(LoopEvent.warning("ObjectRefused", "queue q\u001b[2J\u202Eevil"));
    }

    assertThat(console.toString(StandardCharsets.UTF_8))
        .contains("ObjectRefused: queue q\\u001B[2J\\u202Eevil")
        .doesNotContain("\u001b", "\u202E");
  }

  @Test
  void json_escapesC1AndBidiCharactersToo() throws Exception {
    try (RunLog log = log(RunLog.Format.JSON, 1 << 20, 5)) {
      log.event(LoopEvent.warning("ObjectRefused", "q\u009b2J\u202Eevil"));
    }

    String line = console.toString(StandardCharsets.UTF_8).strip();
    assertThat(line).doesNotContain("\u009b", "\u202E");
    assertThat(new ObjectMapper().readTree(line).path("message").asText())
        .isEqualTo("ObjectRefused: q\u009b2J\u202Eevil");
  }

  @Test
  void json_oneObjectPerLine() throws Exception {
    try (RunLog log = log(RunLog.Format.JSON, 1 << 20, 5)) {
      log.event(LoopEvent.normal("PluginLoaded", "gang from \"caldera-plugin-gang\"\t1.0"));
    }

    List<String> lines = Files.readAllLines(dir.resolve("log/caldera.log"));
    assertThat(lines).hasSize(1);
    JsonNode line = new ObjectMapper().readTree(lines.get(0));
    assertThat(line.get("time").asText()).isEqualTo("2026-11-24T10:15:30.123Z");
    assertThat(line.get("level").asText()).isEqualTo("INFO");
    assertThat(line.get("logger").asText()).isEqualTo("caldera.events");
    assertThat(line.get("message").asText())
        .isEqualTo("PluginLoaded: gang from \"caldera-plugin-gang\"\t1.0");
  }

  @Test
  void json_anEventCarriesItsReasonTypeAndFields() throws Exception {
    try (RunLog log = log(RunLog.Format.JSON, 1 << 20, 5)) {
      log.event(
          LoopEvent.normal("Evicted", "reclaim evicted ai/train-1 ...")
              .with(
                  SchedulingLoop.fields(
                      "object", "Pod/ai/train-1",
                      "namespace", "ai",
                      "queue", "q-batch",
                      "forPod", "",
                      "rule", "tidal.policy:18 (any may reclaim training)")));
    }

    JsonNode line = new ObjectMapper().readTree(console.toString(StandardCharsets.UTF_8).strip());
    assertThat(line.get("reason").asText()).isEqualTo("Evicted");
    assertThat(line.get("type").asText()).isEqualTo("Normal");
    assertThat(line.get("object").asText()).isEqualTo("Pod/ai/train-1");
    assertThat(line.get("namespace").asText()).isEqualTo("ai");
    assertThat(line.get("queue").asText()).isEqualTo("q-batch");
    assertThat(line.get("rule").asText()).isEqualTo("tidal.policy:18 (any may reclaim training)");
    assertThat(line.has("forPod")).as("empty fields are left out").isFalse();
    assertThat(line.get("message").asText()).isEqualTo("Evicted: reclaim evicted ai/train-1 ...");
  }

  @Test
  void file_isRotatedBySize_keepingTheNewestRotatedFiles() throws Exception {
    try (RunLog log = log(RunLog.Format.TEXT, 200, 2)) {
      for (int i = 0; i < 12; i++) {
        log.session("session " + i + " " + "x".repeat(40));
      }
    }

    Path file = dir.resolve("log/caldera.log");
    assertThat(Files.size(file)).isLessThan(200);
    assertThat(dir.resolve("log/caldera.log.1")).exists();
    assertThat(dir.resolve("log/caldera.log.2")).exists();
    assertThat(dir.resolve("log/caldera.log.3")).doesNotExist();
    assertThat(Files.readString(dir.resolve("log/caldera.log.1"))).contains("session 9 ");
    String newest = Files.readString(file) + Files.readString(dir.resolve("log/caldera.log.1"));
    assertThat(newest).contains("session 11 ");
    assertThat(Files.readString(dir.resolve("log/caldera.log.2"))).doesNotContain("session 0 ");
  }

  @Test
  void format_otherThanTextOrJson_isRefusedNamingTheChoices() {
    assertThat(RunLog.Format.parse(" JSON ")).isEqualTo(RunLog.Format.JSON);
    assertThatThrownBy(() -> RunLog.Format.parse("yaml"))
        .hasMessage("log format \"yaml\": expected text or json");
  }

  @Test
  void sessionLine_namesPluginBundles_onlyWhenTheyChange() throws Exception {
    Path file = dir.resolve("log/caldera.log");
    try (RunLog log = log(RunLog.Format.TEXT, 1 << 20, 5)) {
      LoopState state = new LoopState(log, null);
      Map<String, String> v1 = Map.of("gang", "caldera-plugin-gang 1.0.0");
      Map<String, String> v2 = Map.of("gang", "caldera-plugin-gang 1.1.0");

      state.sessionCompleted(session(1, v1), QueueFigures.empty());
      state.sessionCompleted(session(2, v1), QueueFigures.empty());
      state.sessionCompleted(session(3, v2), QueueFigures.empty());
      state.sessionCompleted(session(4, v2), QueueFigures.empty());
    }

    List<String> lines = Files.readAllLines(file);
    assertThat(lines).hasSize(4);
    assertThat(lines.get(0)).endsWith("plugins: gang=caldera-plugin-gang 1.0.0");
    assertThat(lines.get(1)).doesNotContain("plugins");
    assertThat(lines.get(2)).endsWith("plugins: gang=caldera-plugin-gang 1.1.0");
    assertThat(lines.get(3)).doesNotContain("plugins");
  }

  private static SessionRecord session(long index, Map<String, String> plugins) {
    return new SessionRecord(
        index, "u" + index, Instant.EPOCH, 1.0, List.of(), List.of(), 0, plugins, Map.of());
  }
}
