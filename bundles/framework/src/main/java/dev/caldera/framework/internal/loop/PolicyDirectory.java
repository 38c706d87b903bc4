package dev.caldera.framework.internal.loop;

import dev.caldera.api.host.PolicyChecker;
import dev.caldera.framework.loop.LoopEvent;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The watched policies directory: every {@code *.policy} file in it (not below). Each {@link
 * #refresh} looks at the files again. A new or changed text is checked when a {@link PolicyChecker}
 * is given; a text with errors is reported once and the last good version of that file stays in
 * force. A deleted file is dropped. Two files in force never declare the same policy name: the
 * later one is refused (P500).
 *
 * <p>Files are read and checked on a thread of their own; a cycle waits for that at most {@link
 * #READ_WAIT_MILLIS}. A file above {@link #MAX_FILE_BYTES} is refused unread, and one that is not
 * UTF-8 text is refused as that file's error.
 */
final class PolicyDirectory {

  /**
   * How long a cycle waits for the reader thread before going on with the policies in force (the
   * first look is waited for: it is bounded by the size limits).
   */
  static final long READ_WAIT_MILLIS = 2_000;

  /** The largest policy file read (the policy language reads at most 1,000,000 characters). */
  static final long MAX_FILE_BYTES = 1_000_000;

  private final Path dir;
  private final Consumer<LoopEvent> events;
  private final Map<String, String> inForce = new TreeMap<>();
  private final Map<String, String> namesInForce = new TreeMap<>();
  private final Map<String, String> refusedAsDuplicate = new TreeMap<>();
  private final Map<String, String> seen = new TreeMap<>();
  private final Set<String> inError = new TreeSet<>();
  private final Set<String> uncheckedInForce = new TreeSet<>();
  private final ExecutorService reader =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "caldera-policy-reader");
            t.setDaemon(true);
            return t;
          });
  private Future<Scan> scanning;
  private long errors;

  /**
   * One file as the reader thread found it.
   *
   * @param text the text, or for a file that cannot be used, a marker that changes with the file
   * @param problems why the file is refused (empty when it is not)
   * @param policyName the name it declares, or null when unknown
   */
  private record FileState(String text, List<String> problems, String policyName) {}

  /**
   * @param files every policy file, name → its text (or marker)
   * @param changed the files whose text differs from the one seen, checked
   */
  private record Scan(Map<String, String> files, Map<String, FileState> changed) {}

  private final LastGoodState lastGood;

  /** Files put in force from the previous run's last good state, not looked at yet. */
  private final Set<String> fromLastGood = new TreeSet<>();

  /** The files the reader thread is checking now or is still to check in its current look. */
  private final Set<String> checking = ConcurrentHashMap.newKeySet();

  PolicyDirectory(Path dir, Consumer<LoopEvent> events) {
    this(dir, events, new LastGoodState(null, events), Map.of());
  }

  /**
   * @param lastGood where the checked policies in force are recorded
   * @param lastGoodPolicies the policies in force when the scheduler last ran: in force from the
   *     start, each until its file is checked (a file refused keeps its last good text; a file gone
   *     takes it away)
   */
  PolicyDirectory(
      Path dir,
      Consumer<LoopEvent> events,
      LastGoodState lastGood,
      Map<String, String> lastGoodPolicies) {
    this.dir = dir;
    this.events = events;
    this.lastGood = lastGood;
    inForce.putAll(lastGoodPolicies);
    fromLastGood.addAll(lastGoodPolicies.keySet());
    if (!lastGoodPolicies.isEmpty()) {
      events.accept(
          LoopEvent.normal(
              "PoliciesFromLastGood",
              "started with the last good policies of the previous run until their files are"
                  + " checked: "
                  + String.join(", ", new TreeSet<>(lastGoodPolicies.keySet()))));
    }
  }

  /** The files being checked now (they are in force, or their new text is, once checked). */
  List<String> beingChecked() {
    return List.copyOf(new TreeSet<>(checking));
  }

  /**
   * Looks at the directory again; returns file name → text in force. Files put in force while no
   * checker was there (the checker's bundle came later) are checked as soon as one is.
   */
  Map<String, String> refresh(PolicyChecker checker) {
    if (checker == null && !fromLastGood.isEmpty()) {
      // The last good policies were checked; unchecked texts do not replace them before the
      // checker's bundle is there (it was in the run that saved them).
      return inForceNow();
    }
    if (scanning == null && checker != null && !uncheckedInForce.isEmpty()) {
      uncheckedInForce.forEach(seen::remove);
    }
    if (scanning == null) {
      Map<String, String> seenNow = Map.copyOf(seen);
      try {
        scanning = reader.submit(() -> scan(seenNow, checker));
      } catch (RejectedExecutionException e) {
        return inForceNow();
      }
    }
    Scan scan;
    try {
      // The first look waits no longer: a file slow to check is in force (or not) from the
      // cycle after its check, and the loop says that it is being checked meanwhile.
      scan = scanning.get(READ_WAIT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      return inForceNow();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return inForceNow();
    } catch (ExecutionException e) {
      scanning = null;
      return inForceNow();
    }
    scanning = null;
    apply(scan, checker != null);
    if (checker != null) {
      Map<String, String> checked = new TreeMap<>(inForce);
      checked.keySet().removeAll(uncheckedInForce);
      checked.keySet().removeAll(fromLastGood);
      lastGood.policies(checked);
    }
    return inForceNow();
  }

  private Map<String, String> inForceNow() {
    return Collections.unmodifiableMap(new TreeMap<>(inForce));
  }

  private void apply(Scan scan, boolean checked) {
    Map<String, FileState> toApply = new TreeMap<>(scan.changed());
    for (String name : List.copyOf(fromLastGood)) {
      if (!scan.files().containsKey(name)) {
        fromLastGood.remove(name);
        if (inForce.remove(name) != null) {
          events.accept(LoopEvent.normal("PolicyRemoved", dir.resolve(name).toString()));
        }
      } else if (toApply.containsKey(name) || seen.containsKey(name)) {
        fromLastGood.remove(name);
      }
    }
    for (String name : List.copyOf(seen.keySet())) {
      if (!scan.files().containsKey(name)) {
        seen.remove(name);
        inError.remove(name);
        uncheckedInForce.remove(name);
        refusedAsDuplicate.remove(name);
        String released = namesInForce.remove(name);
        if (released != null) {
          // A file refused only for declaring this name gets its turn now.
          refusedAsDuplicate.forEach(
              (file, policyName) -> {
                String text = scan.files().get(file);
                if (policyName.equals(released) && text != null) {
                  seen.remove(file);
                  toApply.putIfAbsent(file, new FileState(text, List.of(), policyName));
                }
              });
        }
        if (inForce.remove(name) != null) {
          events.accept(LoopEvent.normal("PolicyRemoved", dir.resolve(name).toString()));
        }
      }
    }
    toApply.forEach(
        (name, file) -> {
          if (Objects.equals(seen.get(name), file.text())) {
            return;
          }
          seen.put(name, file.text());
          List<String> problems = file.problems();
          refusedAsDuplicate.remove(name);
          if (problems.isEmpty() && file.policyName() != null) {
            problems = duplicateName(name, file.text(), file.policyName());
            if (!problems.isEmpty()) {
              refusedAsDuplicate.put(name, file.policyName());
            }
          }
          if (!problems.isEmpty()) {
            errors++;
            inError.add(name);
            if (uncheckedInForce.remove(name)) {
              // Put in force unchecked, and this is the text's first check: it has no good version.
              inForce.remove(name);
              namesInForce.remove(name);
            }
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
          if (checked) {
            if (uncheckedInForce.remove(name) && file.text().equals(inForce.get(name))) {
              // The text in force, now checked: it stays, and its policy name is known.
              if (file.policyName() != null) {
                namesInForce.put(name, file.policyName());
              }
              return;
            }
          } else {
            uncheckedInForce.add(name);
          }
          boolean changed = inForce.containsKey(name);
          inForce.put(name, file.text());
          if (file.policyName() == null) {
            namesInForce.remove(name);
          } else {
            namesInForce.put(name, file.policyName());
          }
          events.accept(
              LoopEvent.normal(
                  changed ? "PolicyReloaded" : "PolicyLoaded",
                  dir.resolve(name) + (checked ? "" : " (not checked: no policy checker)")));
        });
  }

  /** On the reader thread: every file, and the changed ones checked. */
  private Scan scan(Map<String, String> seenBefore, PolicyChecker checker) {
    Map<String, String> files = new TreeMap<>();
    Map<String, FileState> changed = new TreeMap<>();
    if (!Files.isDirectory(dir)) {
      return new Scan(files, changed);
    }
    List<Path> paths;
    try (Stream<Path> list = Files.list(dir)) {
      paths = list.sorted().toList();
    } catch (IOException e) {
      return new Scan(Map.copyOf(seenBefore), changed);
    }
    for (Path p : paths) {
      String name = p.getFileName().toString();
      if (!name.endsWith(".policy") || !Files.isRegularFile(p)) {
        continue;
      }
      FileState state = readFile(p, name, seenBefore.get(name));
      if (state == null) {
        continue;
      }
      files.put(name, state.text());
      if (Objects.equals(seenBefore.get(name), state.text())) {
        continue;
      }
      if (state.problems().isEmpty() && checker != null) {
        checking.add(name);
        try {
          state = checked(name, state.text(), checker);
        } finally {
          checking.remove(name);
        }
      }
      changed.put(name, state);
    }
    return new Scan(files, changed);
  }

  /**
   * The checker's verdict on a text. Anything it throws (out of memory on a huge policy, a bug) is
   * that file's error, reported once and kept until the text changes: the other files' changes go
   * on, and the text is not checked again every cycle.
   */
  private static FileState checked(String name, String text, PolicyChecker checker) {
    try {
      return new FileState(text, checker.check(name, text), checker.policyName(name, text));
    } catch (Throwable e) {
      return new FileState(
          text,
          List.of(
              name
                  + ": cannot be checked: "
                  + e.getClass().getSimpleName()
                  + (e.getMessage() == null ? "" : ": " + e.getMessage())),
          null);
    }
  }

  /** A file's text, or a refusal; null when it vanished while being read. */
  private FileState readFile(Path p, String name, String seenText) {
    try {
      long size = Files.size(p);
      if (size > MAX_FILE_BYTES) {
        return new FileState(
            "\u0000too large: " + size + "@" + Files.getLastModifiedTime(p).toMillis(),
            List.of(
                name + ": too large: " + size + " bytes, at most " + MAX_FILE_BYTES + " are read"),
            null);
      }
      return new FileState(Files.readString(p, StandardCharsets.UTF_8), List.of(), null);
    } catch (CharacterCodingException e) {
      long size = -1;
      long modified = -1;
      try {
        size = Files.size(p);
        modified = Files.getLastModifiedTime(p).toMillis();
      } catch (IOException gone) {
        // The marker only has to change with the file.
      }
      return new FileState(
          "\u0000not UTF-8: " + size + "@" + modified,
          List.of(name + ": not UTF-8 text (policy files are read as UTF-8)"),
          null);
    } catch (IOException e) {
      // Being removed right now: the next look sees it settled; keep what was seen.
      return seenText == null ? null : new FileState(seenText, List.of(), null);
    }
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
    String[] lines = text.split("\\r?\\n|\\r", -1);
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

  /** Stops the reader thread. */
  void close() {
    reader.shutdownNow();
  }
}
