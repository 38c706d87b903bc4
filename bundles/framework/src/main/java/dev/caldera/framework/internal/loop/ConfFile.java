package dev.caldera.framework.internal.loop;

import dev.caldera.api.PluginArgumentException;
import dev.caldera.api.PluginArguments;
import dev.caldera.api.PluginFactory;
import dev.caldera.framework.PluginRegistry;
import dev.caldera.framework.conf.ConfException;
import dev.caldera.framework.conf.ConfLint;
import dev.caldera.framework.conf.PluginOption;
import dev.caldera.framework.conf.SchedulerConf;
import dev.caldera.framework.internal.session.EvictionRules;
import dev.caldera.framework.loop.ConfStatus;
import dev.caldera.framework.loop.LoopEvent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The watched scheduler conf file. Each {@link #refresh} re-reads the file; a changed text is
 * parsed and its plugin arguments checked against the plugins that are loaded. A valid text
 * replaces the conf in force; an invalid one is reported once and the conf in force stays.
 */
final class ConfFile {

  private final Path path;
  private final Consumer<LoopEvent> events;
  private String seenText;
  private String seenError;
  private SchedulerConf conf;
  private String confText;
  private Instant loadedAt;

  private final LastGoodState lastGood;
  private String lastGoodText;

  ConfFile(Path path, Consumer<LoopEvent> events) {
    this(path, events, new LastGoodState(null, events), null);
  }

  /**
   * @param lastGood where the conf in force is recorded
   * @param lastGoodText the conf in force when the scheduler last ran, or null: used when the
   *     file's text is refused and no conf is in force yet
   */
  ConfFile(Path path, Consumer<LoopEvent> events, LastGoodState lastGood, String lastGoodText) {
    this(path, events, lastGood, lastGoodText, Files::isRegularFile, STUCK_READ_MILLIS);
  }

  /**
   * @param regularFile whether a path is a regular file (following links); a test replaces it to
   *     reach a read that blocks
   * @param stuckReadMillis how long a read may take before it is abandoned and reported
   */
  ConfFile(
      Path path, Consumer<LoopEvent> events, Predicate<Path> regularFile, long stuckReadMillis) {
    this(path, events, new LastGoodState(null, events), null, regularFile, stuckReadMillis);
  }

  private ConfFile(
      Path path,
      Consumer<LoopEvent> events,
      LastGoodState lastGood,
      String lastGoodText,
      Predicate<Path> regularFile,
      long stuckReadMillis) {
    this.path = path;
    this.events = events;
    this.lastGood = lastGood;
    this.lastGoodText = lastGoodText;
    this.regularFile = regularFile;
    this.stuckReadMillis = stuckReadMillis;
  }

  /** Outcome of a refresh: whether a new conf was accepted, or a new text was refused. */
  enum Change {
    NONE,
    ACCEPTED,
    REJECTED
  }

  /**
   * How long a cycle waits for the reader thread before going on with the conf in force; without
   * one, it waits up to {@link #FIRST_READ_WAIT_MILLIS} (the size limit bounds the parse).
   */
  static final long READ_WAIT_MILLIS = 2_000;

  static final long FIRST_READ_WAIT_MILLIS = 30_000;

  /**
   * A read taking longer than this is stuck (a FIFO that replaced the file between the check and
   * the open, a hung file system): it is reported and abandoned, and the next cycle reads anew. A
   * conf of at most {@link SchedulerConf#MAX_CHARS} is read and parsed in milliseconds.
   */
  static final long STUCK_READ_MILLIS = 10_000;

  /**
   * Readers abandoned while stuck that may still be blocked; beyond this many no new read starts
   * until one of them ends, so a file system that hangs every read does not pile up threads.
   */
  static final int MAX_ABANDONED_READERS = 3;

  private final Predicate<Path> regularFile;
  private final long stuckReadMillis;
  private final List<Thread> abandoned = new ArrayList<>();
  private ExecutorService reader = newReader();
  private Future<Read> reading;
  private long readStarted;

  private static ExecutorService newReader() {
    return Executors.newSingleThreadExecutor(
        r -> {
          Thread t = new Thread(r, "caldera-conf-reader");
          t.setDaemon(true);
          return t;
        });
  }

  /**
   * What the reader thread found: {@code text} null when the file cannot be read (then {@code
   * error} says why); {@code parsed} null when the text does not parse (then {@code error} says
   * why); {@code unchanged} when the text is the one seen last.
   */
  private record Read(boolean unchanged, String text, SchedulerConf parsed, String error) {}

  /**
   * Looks at the file again and returns what changed. The file is read and parsed on a thread of
   * its own, and a cycle waits for it at most {@link #READ_WAIT_MILLIS}: a huge or slow file cannot
   * stall scheduling, and one above {@link SchedulerConf#MAX_CHARS} bytes is refused unread. Plugin
   * arguments are checked with {@code registry}'s factories; a plugin that is not loaded cannot be
   * checked and is accepted.
   */
  Change refresh(PluginRegistry registry) {
    if (reading == null) {
      abandoned.removeIf(t -> !t.isAlive());
      if (abandoned.size() >= MAX_ABANDONED_READERS) {
        return refuse(
            null,
            "conf file "
                + path
                + " cannot be read: "
                + abandoned.size()
                + " earlier reads are still blocked (a hung file system?)",
            registry);
      }
      String seen = seenText;
      try {
        readStarted = System.nanoTime();
        reading =
            reader.submit(
                () -> {
                  readerThread = Thread.currentThread();
                  return read(seen);
                });
      } catch (RejectedExecutionException e) {
        return Change.NONE;
      }
    }
    Read r;
    long waitMillis = conf == null ? FIRST_READ_WAIT_MILLIS : READ_WAIT_MILLIS;
    long stuckIn = stuckReadMillis - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - readStarted);
    try {
      r = reading.get(Math.max(0, Math.min(waitMillis, stuckIn)), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      if (System.nanoTime() - readStarted < TimeUnit.MILLISECONDS.toNanos(stuckReadMillis)) {
        return Change.NONE;
      }
      return abandonStuckRead(registry);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Change.NONE;
    } catch (ExecutionException e) {
      reading = null;
      return refuse(null, "cannot read conf file " + path + ": " + e.getCause(), registry);
    }
    reading = null;
    if (r.unchanged()) {
      return Change.NONE;
    }
    if (r.text() == null) {
      return refuse(null, r.error(), registry);
    }
    String text = r.text();
    seenText = text;
    if (r.error() != null) {
      return refuse(text, r.error(), registry);
    }
    SchedulerConf parsed = r.parsed();
    List<String> problems = argumentProblems(parsed, registry);
    if (!problems.isEmpty()) {
      return refuse(
          text,
          oneLine(new ConfException(path.getFileName().toString(), problems).getMessage()),
          registry);
    }
    boolean first = conf == null;
    conf = parsed;
    confText = text;
    loadedAt = Instant.now();
    seenError = null;
    lastGoodText = null;
    lastGood.conf(text);
    events.accept(
        LoopEvent.normal(
            first ? "ConfLoaded" : "ConfReloaded",
            path
                + ": actions "
                + String.join(", ", parsed.actions())
                + "; plugins "
                + String.join(", ", parsed.pluginNames())
                + (first ? "" : " (from the next session)")));
    for (String warning : ConfLint.warnings(parsed)) {
      events.accept(LoopEvent.warning("ConfLint", path + ": " + warning));
    }
    return Change.ACCEPTED;
  }

  private volatile Thread readerThread;

  /**
   * The read in flight has taken {@link #stuckReadMillis}: it is reported, its thread interrupted
   * and left behind (a thread blocked opening a FIFO ignores interrupts), and the next cycle reads
   * on a new thread, so a later edit is read.
   */
  private Change abandonStuckRead(PluginRegistry registry) {
    reading.cancel(true);
    reading = null;
    Thread stuck = readerThread;
    if (stuck != null && stuck.isAlive()) {
      abandoned.add(stuck);
    }
    reader.shutdownNow();
    reader = newReader();
    return refuse(
        null,
        "reading conf file "
            + path
            + " has not finished after "
            + stuckReadMillis / 1000.0
            + " s (a FIFO, a device or a hung file system?); the read is abandoned and the file"
            + " read again at the next cycle",
        registry);
  }

  /** On the reader thread: the file's text and what it parses to. */
  private Read read(String seen) {
    if (!regularFile.test(path)) {
      if (Files.notExists(path)) {
        return new Read(false, null, null, "conf file " + path + " does not exist");
      }
      return new Read(
          false,
          null,
          null,
          "conf file "
              + path
              + " is not a regular file (a FIFO, a device or a directory): only a regular file is"
              + " read, the next cycle looks again");
    }
    long size;
    try {
      size = Files.size(path);
    } catch (NoSuchFileException e) {
      return new Read(false, null, null, "conf file " + path + " does not exist");
    } catch (IOException e) {
      return new Read(false, null, null, "cannot read conf file " + path + ": " + e.getMessage());
    }
    if (size > SchedulerConf.MAX_CHARS) {
      return new Read(
          false,
          null,
          null,
          "conf file "
              + path
              + " is too large: "
              + size
              + " bytes, at most "
              + SchedulerConf.MAX_CHARS
              + " are read (a conf is a few kilobytes)");
    }
    String text;
    try {
      text = Files.readString(path, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return new Read(false, null, null, "conf file " + path + " does not exist");
    } catch (IOException e) {
      return new Read(false, null, null, "cannot read conf file " + path + ": " + e.getMessage());
    }
    if (text.equals(seen)) {
      return new Read(true, text, null, null);
    }
    try {
      return new Read(false, text, SchedulerConf.parse(text, path.getFileName().toString()), null);
    } catch (ConfException e) {
      return new Read(false, text, null, oneLine(e.getMessage()));
    }
  }

  /** Stops the reader thread. */
  void close() {
    reader.shutdownNow();
  }

  private Change refuse(String text, String error, PluginRegistry registry) {
    seenText = text;
    if (error.equals(seenError)) {
      return Change.NONE;
    }
    seenError = error;
    boolean fromLastGood = conf == null && lastGoodInForce(registry);
    events.accept(
        LoopEvent.warning(
            "ConfRejected",
            error
                + (fromLastGood
                    ? " (the last good conf, kept from the previous run, is in force)"
                    : conf == null
                        ? ""
                        : " (the conf loaded at " + loadedAt + " stays in force)")));
    if (fromLastGood) {
      events.accept(
          LoopEvent.warning(
              "ConfFromLastGood",
              "started with the last good conf of the previous run: "
                  + path
                  + " is refused; actions "
                  + String.join(", ", conf.actions())
                  + "; plugins "
                  + String.join(", ", conf.pluginNames())));
      return Change.ACCEPTED;
    }
    return Change.REJECTED;
  }

  /** Puts the previous run's last good conf in force, when there is one that still checks. */
  private boolean lastGoodInForce(PluginRegistry registry) {
    String text = lastGoodText;
    lastGoodText = null;
    if (text == null) {
      return false;
    }
    SchedulerConf parsed;
    try {
      parsed = SchedulerConf.parse(text, path.getFileName().toString());
    } catch (ConfException e) {
      return false;
    }
    if (!argumentProblems(parsed, registry).isEmpty()) {
      return false;
    }
    conf = parsed;
    confText = text;
    loadedAt = Instant.now();
    return true;
  }

  /** A YAML parser's multi-line message as one log line. */
  static String oneLine(String message) {
    return message.strip().replaceAll("\\s*\\n\\s*", " ");
  }

  /**
   * Creates each plugin the conf names that is loaded, so that a bad argument refuses the conf now
   * rather than failing every session.
   */
  static List<String> argumentProblems(SchedulerConf conf, PluginRegistry registry) {
    List<String> problems = new ArrayList<>();
    for (int t = 0; t < conf.tiers().size(); t++) {
      List<PluginOption> options = conf.tiers().get(t).plugins();
      for (int p = 0; p < options.size(); p++) {
        PluginOption option = options.get(p);
        Optional<PluginFactory> factory = registry.plugin(option.name());
        if (factory.isEmpty()) {
          continue;
        }
        try {
          factory
              .get()
              .create(
                  new PluginArguments(
                      option.name(), option.arguments(), conf.hierarchyEnabled(option.name())));
        } catch (PluginArgumentException e) {
          problems.add(
              "tiers[" + t + "].plugins[" + p + "] (" + option.name() + "): " + e.getMessage());
        }
      }
    }
    problems.addAll(EvictionRules.problems(conf));
    return problems;
  }

  /** The conf in force, or null when no valid conf was read yet. */
  SchedulerConf conf() {
    return conf;
  }

  /** Why there is no conf in force, or why the file's current text is refused; null if neither. */
  String error() {
    return seenError;
  }

  ConfStatus status() {
    return new ConfStatus(
        path.toString(),
        confText,
        loadedAt,
        seenError,
        conf == null ? List.of() : conf.actions(),
        conf == null ? List.of() : conf.pluginNames());
  }
}
