package dev.caldera.framework.internal.loop;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.caldera.framework.loop.LoopEvent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The last conf and policy texts that were in force, checked, kept in a file so that a restart
 * after a refused edit starts from them instead of holding. Written (atomically) whenever what is
 * in force changes; read once at start. A file that cannot be written or read is one warning event,
 * and the loop goes on without it.
 */
final class LastGoodState {

  /** The name of the file, beside the log file (or the conf when there is no log file). */
  static final String FILE_NAME = "caldera-last-good.json";

  /** Larger state files are not read (a conf is at most 256 KiB; policies are small). */
  private static final long MAX_BYTES = 64L * 1024 * 1024;

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * What was in force.
   *
   * @param conf the conf text, or null when none was
   * @param policies policy file name → text
   */
  record State(String conf, Map<String, String> policies) {
    State {
      policies = policies == null ? Map.of() : Map.copyOf(new TreeMap<>(policies));
    }
  }

  private final Path file;
  private final Consumer<LoopEvent> events;
  private State saved;
  private boolean warned;

  /**
   * @param file null to keep nothing
   */
  LastGoodState(Path file, Consumer<LoopEvent> events) {
    this.file = file;
    this.events = events;
    this.saved = new State(null, Map.of());
  }

  /** The state file for a loop with this conf and log file. */
  static Path beside(Path conf, Path logFile) {
    Path dir = logFile != null ? logFile.toAbsolutePath().getParent() : null;
    if (dir == null) {
      dir = conf.toAbsolutePath().getParent();
    }
    return dir == null ? null : dir.resolve(FILE_NAME);
  }

  /** The state saved by an earlier run (empty when there is none or it cannot be read). */
  synchronized State load() {
    if (file == null) {
      return saved;
    }
    try {
      if (Files.size(file) > MAX_BYTES) {
        throw new IOException("larger than " + MAX_BYTES + " bytes");
      }
      Map<String, Object> tree =
          JSON.readValue(Files.readString(file, StandardCharsets.UTF_8), new TypeReference<>() {});
      Object conf = tree.get("conf");
      Map<String, String> policies =
          JSON.convertValue(tree.get("policies"), new TypeReference<Map<String, String>>() {});
      saved = new State(conf instanceof String s ? s : null, policies);
    } catch (NoSuchFileException e) {
      // First start.
    } catch (IOException | RuntimeException e) {
      warn("cannot read the last good state " + file + ": " + e.getMessage());
    }
    return saved;
  }

  /** Records the conf in force (checked). */
  synchronized void conf(String text) {
    save(new State(text, saved.policies()));
  }

  /** Records the policies in force (checked). */
  synchronized void policies(Map<String, String> policies) {
    save(new State(saved.conf(), policies));
  }

  private void save(State state) {
    if (state.equals(saved)) {
      return;
    }
    saved = state;
    if (file == null) {
      return;
    }
    Map<String, Object> tree = new TreeMap<>();
    if (state.conf() != null) {
      tree.put("conf", state.conf());
    }
    tree.put("policies", state.policies());
    Path temp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      Files.writeString(temp, JSON.writeValueAsString(tree), StandardCharsets.UTF_8);
      try {
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException | RuntimeException e) {
      warn(
          "cannot keep the last good state in "
              + file
              + ": "
              + Objects.toString(e.getMessage(), e.getClass().getSimpleName())
              + " (a restart after a refused edit will hold until the files are fixed)");
    }
  }

  private void warn(String message) {
    if (!warned) {
      warned = true;
      events.accept(LoopEvent.warning("LastGoodStateUnavailable", message));
    }
  }
}
