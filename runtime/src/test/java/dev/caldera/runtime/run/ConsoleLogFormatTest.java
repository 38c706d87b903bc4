package dev.caldera.runtime.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.ConnectException;
import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

class ConsoleLogFormatTest {

  private static LogRecord record(Level level, String message, Throwable thrown) {
    LogRecord r = new LogRecord(level, message);
    r.setLoggerName("dev.caldera.kube.internal.Informers");
    r.setInstant(Instant.parse("2026-11-25T09:25:04.123Z"));
    r.setThrown(thrown);
    return r;
  }

  @Test
  void aWarning_isOneLine_likeTheRunsOwnLines() {
    String line =
        new ConsoleLogFormat(false)
            .format(
                record(
                    Level.WARNING,
                    "informer pods: no answer from the API server\nretrying",
                    new ConnectException("Connection refused")));

    assertThat(line)
        .isEqualTo(
            "2026-11-25T09:25:04.123Z WARN  dev.caldera.kube.internal.Informers informer pods: no"
                + " answer from the API server retrying (java.net.ConnectException: Connection"
                + " refused)"
                + System.lineSeparator());
  }

  @Test
  void anError_keepsItsStackTrace() {
    String text =
        new ConsoleLogFormat(false)
            .format(record(Level.SEVERE, "a bug", new IllegalStateException("broken")));

    assertThat(text.lines().findFirst())
        .hasValue("2026-11-25T09:25:04.123Z ERROR dev.caldera.kube.internal.Informers a bug");
    assertThat(text).contains("java.lang.IllegalStateException: broken", "\tat ");
  }

  @Test
  void json_isOneObjectPerRecord() throws Exception {
    String line =
        new ConsoleLogFormat(true)
            .format(record(Level.INFO, "metrics.k8s.io is not \"served\"", null));

    assertThat(line.strip()).doesNotContain("\n");
    JsonNode json = new ObjectMapper().readTree(line);
    assertThat(json.get("time").asText()).isEqualTo("2026-11-25T09:25:04.123Z");
    assertThat(json.get("level").asText()).isEqualTo("INFO");
    assertThat(json.get("logger").asText()).isEqualTo("dev.caldera.kube.internal.Informers");
    assertThat(json.get("message").asText()).isEqualTo("metrics.k8s.io is not \"served\"");
    assertThat(json.has("stack")).isFalse();
  }

  @Test
  void levels_areNamedAsTheRunNamesThem() {
    assertThat(ConsoleLogFormat.level(Level.SEVERE)).isEqualTo("ERROR");
    assertThat(ConsoleLogFormat.level(Level.WARNING)).isEqualTo("WARN");
    assertThat(ConsoleLogFormat.level(Level.INFO)).isEqualTo("INFO");
    assertThat(ConsoleLogFormat.level(Level.FINE)).isEqualTo("DEBUG");
  }
}
