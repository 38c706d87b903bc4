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
  private final Map<String, String> namesInForce = new TreeMap<>();
  private final Map<String, String> refusedAsDuplicate = new TreeMap<>();
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
        refusedAsDuplicate.remove(name);
        String released = namesInForce.remove(name);
        if (released != null) {
          // A file refused for declaring this name gets its turn at the next look.
          refusedAsDuplicate.forEach(
              (file, policyName) -> {
                if (policyName.equals(released)) {
                  seen.remove(file);
                }
              });
        }
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
          String policyName = checker == null ? null : checker.policyName(name, text);
          refusedAsDuplicate.remove(name);
          if (problems.isEmpty() && policyName != null) {
            problems = duplicateName(name, text, policyName);
            if (!problems.isEmpty()) {
              refusedAsDuplicate.put(name, policyName);
            }
          }
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
          if (policyName == null) {
            namesInForce.remove(name);
          } else {
            namesInForce.put(name, policyName);
          }
          events.accept(
              LoopEvent.normal(
                  changed ? "PolicyReloaded" : "PolicyLoaded",
                  dir.resolve(name)
                      + (checker == null ? " (not checked: no policy checker)" : "")));
        });
    return Collections.unmodifiableMap(new TreeMap<>(inForce));
  }

  /**
   * A P500 error when another file in force declares {@code policyName}: the file in force stays,
   * the newcomer is refused (at startup, the first file in name order is the one in force).
   */
  private List<String> duplicateName(String file, String text, String policyName) {
    for (Map.Entry<String, String> e : namesInForce.entrySet()) {
      if (!e.getKey().equals(file) && e.getValue().equals(policyName)) {
        return List.of(
            file
                + ":"
                + headerPosition(text, policyName)
                + ": duplicate policy name '"
                + policyName
                + "' (P500): "
                + e.getKey()
                + " declares it and stays in force");
      }
    }
    return List.of();
  }

  /** {@code line:column} of the name in the {@code policy NAME} header. */
  private static String headerPosition(String text, String policyName) {
    String[] lines = text.split("\r?\n|\r", -1);
    for (int i = 0; i < lines.length; i++) {
      String trimmed = lines[i].stripLeading();
      if (trimmed.startsWith("policy ") || trimmed.startsWith("policy\t")) {
        int at = lines[i].indexOf(policyName, lines[i].indexOf("policy") + 6);
        return (i + 1) + ":" + (at + 1);
      }
    }
    return "1:1";
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
