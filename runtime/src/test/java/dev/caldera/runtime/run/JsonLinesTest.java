package dev.caldera.runtime.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class JsonLinesTest {

  @Test
  void plainLinesBecomeJsonObjects_andJsonLinesPassUnchanged() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream target = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    PrintStream out =
        new PrintStream(
            new JsonLines(
                target,
                "caldera.run",
                Clock.fixed(Instant.parse("2026-11-24T10:15:30.123Z"), ZoneOffset.UTC)),
            true,
            StandardCharsets.UTF_8);

    out.println("admin: http://127.0.0.1:8080/ (healthz, \"readyz\")");
    out.println(
        "{\"time\":\"t\",\"level\":\"INFO\",\"logger\":\"caldera.events\",\"message\":\"m\"}");
    out.print("error: no bundles\u202E\n");

    String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
    assertThat(lines).hasSize(3);
    ObjectMapper json = new ObjectMapper();
    JsonNode first = json.readTree(lines[0]);
    assertThat(first.get("time").asText()).isEqualTo("2026-11-24T10:15:30.123Z");
    assertThat(first.get("level").asText()).isEqualTo("INFO");
    assertThat(first.get("logger").asText()).isEqualTo("caldera.run");
    assertThat(first.get("message").asText())
        .isEqualTo("admin: http://127.0.0.1:8080/ (healthz, \"readyz\")");
    assertThat(json.readTree(lines[1]).get("logger").asText()).isEqualTo("caldera.events");
    assertThat(lines[2]).doesNotContain("\u202E");
    assertThat(json.readTree(lines[2]).get("level").asText()).isEqualTo("ERROR");
  }
}
