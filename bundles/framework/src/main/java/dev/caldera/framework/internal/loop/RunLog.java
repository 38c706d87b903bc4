package dev.caldera.framework.internal.loop;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/**
 * Where the loop writes: events and status lines go to the console, and everything, including one
 * line per session, to the log file (when there is one). Thread-safe.
 */
final class RunLog implements AutoCloseable {

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ISO_LOCAL_TIME.withZone(ZoneOffset.UTC);

  private final PrintStream console;
  private final boolean sessionsToConsole;
  private final Writer file;

  /**
   * @param console null for no console output
   * @param logFile null for no log file; created with its directories, appended to
   * @param sessionsToConsole also print session lines on the console
   */
  RunLog(PrintStream console, Path logFile, boolean sessionsToConsole) throws IOException {
    this.console = console;
    this.sessionsToConsole = sessionsToConsole;
    if (logFile == null) {
      file = null;
    } else {
      Path parent = logFile.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      file =
          Files.newBufferedWriter(
              logFile,
              StandardCharsets.UTF_8,
              StandardOpenOption.CREATE,
              StandardOpenOption.APPEND);
    }
  }

  /** An event or a lifecycle message: console and file. */
  synchronized void event(String line) {
    if (console != null) {
      console.println(line);
    }
    toFile(line);
  }

  /** A session line: the file, and the console if asked. */
  synchronized void session(String line) {
    if (console != null && sessionsToConsole) {
      console.println(line);
    }
    toFile(line);
  }

  /** A periodic status line: console only. */
  synchronized void status(String line) {
    if (console != null) {
      console.println(line);
    }
  }

  private void toFile(String line) {
    if (file == null) {
      return;
    }
    try {
      file.write(TIME.format(Instant.now().truncatedTo(ChronoUnit.MILLIS)));
      file.write(' ');
      file.write(line);
      file.write('\n');
      file.flush();
    } catch (IOException e) {
      // The log file is best effort; the console and the admin API still report.
    }
  }

  @Override
  public synchronized void close() {
    if (file != null) {
      try {
        file.close();
      } catch (IOException e) {
        // Nothing more can be logged.
      }
    }
  }
}
