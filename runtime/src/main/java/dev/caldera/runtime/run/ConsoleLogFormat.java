package dev.caldera.runtime.run;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.caldera.framework.loop.TerminalText;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * What the bundles log through java.util.logging (the kube bundle, and fabric8 through slf4j), in
 * the form of the run's own lines: one line per record with an ISO-8601 UTC time, a level, the
 * logger and the message, or one JSON object with {@code --log-format json}. The JDK's default
 * takes two lines per record, in local time. An exception is named at the end of the line; only an
 * error (SEVERE) gets its stack trace, which is what a bug report needs.
 */
final class ConsoleLogFormat extends Formatter {

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSX", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  private final boolean json;

  ConsoleLogFormat(boolean json) {
    this.json = json;
  }

  /**
   * Puts this format on the root logger's console handlers, unless java.util.logging is configured
   * on the command line ({@code java.util.logging.config.file} or {@code .class}).
   */
  static void install(boolean json) {
    if (System.getProperty("java.util.logging.config.file") != null
        || System.getProperty("java.util.logging.config.class") != null) {
      return;
    }
    for (Handler h : Logger.getLogger("").getHandlers()) {
      if (h instanceof ConsoleHandler) {
        h.setFormatter(new ConsoleLogFormat(json));
      }
    }
  }

  @Override
  public String format(LogRecord record) {
    String time = TIME.format(Instant.ofEpochMilli(record.getMillis()));
    String level = level(record.getLevel());
    String logger = record.getLoggerName() == null ? "" : record.getLoggerName();
    String message = formatMessage(record);
    Throwable thrown = record.getThrown();
    String stack = null;
    if (thrown != null) {
      if (record.getLevel().intValue() >= Level.SEVERE.intValue()) {
        stack = stackTrace(thrown);
      } else {
        message = message + " (" + thrown + ")";
      }
    }
    if (json) {
      return "{\"time\":\""
          + time
          + "\",\"level\":\""
          + level
          + "\",\"logger\":\""
          + quote(logger)
          + "\",\"message\":\""
          + quote(message)
          + (stack == null ? "" : "\",\"stack\":\"" + quote(stack))
          + "\"}"
          + System.lineSeparator();
    }
    return String.format(
        Locale.ROOT,
        "%s %-5s %s %s%n%s",
        time,
        level,
        logger,
        TerminalText.escape(message.strip().replace('\n', ' ')),
        stack == null ? "" : stack);
  }

  /** The run's level names: ERROR, WARN, INFO, DEBUG. */
  static String level(Level level) {
    int value = level.intValue();
    if (value >= Level.SEVERE.intValue()) {
      return "ERROR";
    }
    if (value >= Level.WARNING.intValue()) {
      return "WARN";
    }
    return value >= Level.INFO.intValue() ? "INFO" : "DEBUG";
  }

  private static String stackTrace(Throwable thrown) {
    StringWriter out = new StringWriter();
    thrown.printStackTrace(new PrintWriter(out));
    return out.toString();
  }

  /**
   * {@code s} inside a JSON string; C1 and bidirectional formatting characters too are written as
   * {@code \}{@code uXXXX} (JSON decodes them back), so a log line shown on a terminal is safe.
   */
  private static String quote(String s) {
    char[] quoted = JsonStringEncoder.getInstance().quoteAsString(s);
    StringBuilder out = new StringBuilder(quoted.length);
    for (char c : quoted) {
      if (TerminalText.unsafe(c)) {
        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
