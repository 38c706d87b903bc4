package dev.caldera.framework.internal.loop;

import dev.caldera.framework.loop.LoopEvent;
import dev.caldera.framework.loop.TerminalText;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Where the loop writes: events and status lines go to the console, and everything, including one
 * line per session, to the log file (when there is one). Every line is one event with an ISO-8601
 * UTC timestamp, a level and a logger, as text ({@code 2026-11-24T10:15:30.123Z INFO
 * caldera.session session 12 ...}) or as one JSON object. The file is rotated by size: past {@link
 * Settings#maxBytes()} it becomes {@code NAME.1} (the older ones {@code NAME.2} ... up to {@link
 * Settings#keep()}) and a new file starts. Thread-safe.
 */
final class RunLog implements AutoCloseable {

  /** How lines are written. */
  enum Format {
    TEXT,
    JSON;

    /** {@code text} or {@code json}, any case. */
    static Format parse(String name) {
      try {
        return valueOf(name.trim().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("log format \"" + name + "\": expected text or json", e);
      }
    }
  }

  /**
   * @param maxBytes the file's size at which it is rotated
   * @param keep how many rotated files are kept ({@code NAME.1} ... {@code NAME.keep})
   */
  record Settings(Format format, long maxBytes, int keep) {
    static final Settings DEFAULT = new Settings(Format.TEXT, 10L * 1024 * 1024, 5);
  }

  static final String EVENTS = "caldera.events";
  static final String SESSIONS = "caldera.session";
  static final String STATUS = "caldera.status";

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSX", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  private final PrintStream console;
  private final boolean sessionsToConsole;
  private final Path logFile;
  private final Settings settings;
  private final Clock clock;
  private Writer file;
  private long fileBytes;

  RunLog(PrintStream console, Path logFile, boolean sessionsToConsole) throws IOException {
    this(console, logFile, sessionsToConsole, Settings.DEFAULT, Clock.systemUTC());
  }

  /**
   * @param console null for no console output
   * @param logFile null for no log file; created with its directories, appended to
   * @param sessionsToConsole also print session lines on the console
   */
  RunLog(
      PrintStream console, Path logFile, boolean sessionsToConsole, Settings settings, Clock clock)
      throws IOException {
    this.console = console;
    this.sessionsToConsole = sessionsToConsole;
    this.logFile = logFile;
    this.settings = settings;
    this.clock = clock;
    if (logFile != null) {
      Path parent = logFile.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      open();
    }
  }

  /** An event: console and file, WARN for a {@code Warning}, INFO otherwise. */
  synchronized void event(LoopEvent e) {
    String level = "Warning".equals(e.type()) ? "WARN" : "INFO";
    String line =
        settings.format() == Format.JSON
            ? jsonEvent(level, e)
            : line(level, EVENTS, e.reason() + ": " + e.message());
    if (console != null) {
      console.println(line);
    }
    toFile(line);
  }

  /** A session line: the file, and the console if asked. */
  synchronized void session(String message) {
    String line = line("INFO", SESSIONS, message);
    if (console != null && sessionsToConsole) {
      console.println(line);
    }
    toFile(line);
  }

  /** A periodic status line: console only. */
  synchronized void status(String message) {
    if (console != null) {
      console.println(line("INFO", STATUS, message));
    }
  }

  /**
   * An event as one JSON object: the line's fields, then {@code type}, {@code reason} and the
   * event's own fields ({@code object}, {@code namespace}, {@code queue}, {@code rule}, ...).
   */
  private String jsonEvent(String level, LoopEvent e) {
    String base = line(level, EVENTS, e.reason() + ": " + e.message());
    StringBuilder extra = new StringBuilder();
    extra.append(",\"type\":").append(quote(e.type()));
    extra.append(",\"reason\":").append(quote(e.reason()));
    e.fields().forEach((k, v) -> extra.append(',').append(quote(k)).append(':').append(quote(v)));
    return base.substring(0, base.length() - 1) + extra + "}";
  }

  /** One line in the configured format. */
  String line(String level, String logger, String message) {
    String time = TIME.format(clock.instant());
    if (settings.format() == Format.JSON) {
      return "{\"time\":\""
          + time
          + "\",\"level\":\""
          + level
          + "\",\"logger\":\""
          + logger
          + "\",\"message\":"
          + quote(message)
          + "}";
    }
    return String.format(Locale.ROOT, "%s %-5s %s %s", time, level, logger, oneLine(message));
  }

  private void toFile(String line) {
    if (file == null) {
      return;
    }
    try {
      file.write(line);
      file.write('\n');
      file.flush();
      fileBytes += line.getBytes(StandardCharsets.UTF_8).length + 1;
      if (fileBytes >= settings.maxBytes()) {
        rotate();
      }
    } catch (IOException e) {
      // The log file is best effort; the console and the admin API still report.
    }
  }

  private void open() throws IOException {
    file =
        Files.newBufferedWriter(
            logFile, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    fileBytes = Files.size(logFile);
  }

  /** NAME.(keep-1) to NAME.keep, ..., NAME to NAME.1; the oldest beyond keep is gone. */
  private void rotate() throws IOException {
    file.close();
    file = null;
    for (int i = settings.keep() - 1; i >= 1; i--) {
      Path from = rotated(i);
      if (Files.exists(from)) {
        Files.move(from, rotated(i + 1), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    if (settings.keep() >= 1) {
      Files.move(logFile, rotated(1), StandardCopyOption.REPLACE_EXISTING);
    } else {
      Files.delete(logFile);
    }
    open();
  }

  private Path rotated(int n) {
    return logFile.resolveSibling(logFile.getFileName() + "." + n);
  }

  /**
   * A message on one line, safe on a terminal: line breaks become {@code \n}, other control and
   * bidirectional formatting characters (from names and annotations in the cluster) escapes.
   */
  private static String oneLine(String message) {
    return TerminalText.escape(message);
  }

  private static String quote(String s) {
    StringBuilder out = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (TerminalText.unsafe(c)) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }

  @Override
  public synchronized void close() {
    if (file != null) {
      try {
        file.close();
      } catch (IOException e) {
        // Nothing more can be logged.
      }
      file = null;
    }
  }
}
