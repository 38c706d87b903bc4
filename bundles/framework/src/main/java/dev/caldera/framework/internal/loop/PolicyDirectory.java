package dev.caldera.framework.internal.loop;

import dev.caldera.framework.loop.LoopEvent;
import dev.caldera.framework.loop.PolicyChecker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The watched policies directory: every {@code *.policy} file in it (not below). Each {@link
 * #refresh} re-reads the files. A new or changed text is checked when a {@link PolicyChecker} is
 * given; a text with errors is reported once and the last good version of that file stays in force.
 * A deleted file is dropped.
 */
final class PolicyDirectory {

  private final Path dir;
  private final Consumer<LoopEvent> events;
  private final Map<String, String> inForce = new TreeMap<>();
  private final Map<String, String> seen = new TreeMap<>();
  private final Set<String> inError = new TreeSet<>();
  private long errors;

  PolicyDirectory(Path dir, Consumer<LoopEvent> events) {
    this.dir = dir;
    this.events = events;
  }

  /** Re-reads the directory; returns file name → text in force. */
  Map<String, String> refresh(PolicyChecker checker) {
    Map<String, String> current = read();
    for (String name : List.copyOf(seen.keySet())) {
      if (!current.containsKey(name)) {
        seen.remove(name);
        inError.remove(name);
        if (inForce.remove(name) != null) {
          events.accept(LoopEvent.normal("PolicyRemoved", dir.resolve(name).toString()));
        }
      }
    }
    current.forEach(
        (name, text) -> {
          if (Objects.equals(seen.get(name), text)) {
            return;
          }
          seen.put(name, text);
          List<String> problems = checker == null ? List.of() : checker.check(name, text);
          if (!problems.isEmpty()) {
            errors++;
            inError.add(name);
            events.accept(
                LoopEvent.warning(
                    "PolicyRejected",
                    String.join("; ", problems)
                        + (inForce.containsKey(name)
                            ? " (the last good version of " + name + " stays in force)"
                            : "")));
            return;
          }
          inError.remove(name);
          boolean changed = inForce.containsKey(name);
          inForce.put(name, text);
          events.accept(
              LoopEvent.normal(
                  changed ? "PolicyReloaded" : "PolicyLoaded",
                  dir.resolve(name)
                      + (checker == null ? " (not checked: no policy checker)" : "")));
        });
    return Collections.unmodifiableMap(new TreeMap<>(inForce));
  }

  /** The files whose current text has errors, by name. */
  List<String> filesInError() {
    return List.copyOf(inError);
  }

  /** Policy files refused so far. */
  long errors() {
    return errors;
  }

  private Map<String, String> read() {
    Map<String, String> out = new TreeMap<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : files.sorted().toList()) {
        String name = p.getFileName().toString();
        if (name.endsWith(".policy") && Files.isRegularFile(p)) {
          try {
            out.put(name, Files.readString(p, StandardCharsets.UTF_8));
          } catch (IOException e) {
            // Being written or removed right now: the next refresh sees it settled.
            String last = seen.get(name);
            if (last != null) {
              out.put(name, last);
            }
          }
        }
      }
    } catch (IOException e) {
      return Map.copyOf(seen);
    }
    return out;
  }
}
