package dev.caldera.framework.internal.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.caldera.framework.loop.LoopEvent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LastGoodStateTest {

  @TempDir Path dir;

  private final List<LoopEvent> events = new ArrayList<>();

  @Test
  void whatIsSaved_isWhatTheNextRunLoads() {
    Path file = dir.resolve(LastGoodState.FILE_NAME);
    LastGoodState first = new LastGoodState(file, events::add);
    first.conf("actions: allocate\n");
    first.policies(Map.of("b.policy", "B", "a.policy", "A"));

    LastGoodState.State loaded = new LastGoodState(file, events::add).load();

    assertThat(loaded.conf()).isEqualTo("actions: allocate\n");
    assertThat(loaded.policies())
        .containsOnly(Map.entry("a.policy", "A"), Map.entry("b.policy", "B"));
    assertThat(events).isEmpty();
    assertThat(dir.resolve(LastGoodState.FILE_NAME + ".tmp")).doesNotExist();
  }

  @Test
  void aDamagedStateFile_isOneWarning_andAnEmptyState() throws IOException {
    Path file = dir.resolve(LastGoodState.FILE_NAME);
    Files.writeString(file, "{\"conf\": ");

    LastGoodState.State loaded = new LastGoodState(file, events::add).load();

    assertThat(loaded.conf()).isNull();
    assertThat(loaded.policies()).isEmpty();
    assertThat(events)
        .singleElement()
        .satisfies(e -> assertThat(e.reason()).isEqualTo("LastGoodStateUnavailable"));
  }

  @Test
  void anUnwritableDirectory_isOneWarning() {
    Path file = dir.resolve("missing-dir/" + LastGoodState.FILE_NAME);
    LastGoodState state = new LastGoodState(file, events::add);

    state.conf("a");
    state.conf("b");

    assertThat(events)
        .singleElement()
        .satisfies(e -> assertThat(e.message()).contains("cannot keep the last good state"));
  }

  @Test
  void theFile_isBesideTheLogFile_elseBesideTheConf() {
    assertThat(LastGoodState.beside(Path.of("/etc/c/scheduler.conf"), Path.of("/var/log/c/c.log")))
        .isEqualTo(Path.of("/var/log/c/" + LastGoodState.FILE_NAME));
    assertThat(LastGoodState.beside(Path.of("/etc/c/scheduler.conf"), null))
        .isEqualTo(Path.of("/etc/c/" + LastGoodState.FILE_NAME));
  }
}
