package dev.caldera.runtime.run;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.caldera.framework.loop.TerminalText;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * With {@code --log-format json}, the plain lines of {@code caldera run} (its start, the admin
 * address, the cluster, its stop) as JSON objects like the run log's ({@code time}, {@code level},
 * {@code logger}, {@code message}), so that every line of the console is JSON. A line that already
 * is a JSON object (the run log's own) passes unchanged.
 */
final class JsonLines extends OutputStream {

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSX", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  private final PrintStream target;
  private final String logger;
  private final Clock clock;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();

  JsonLines(PrintStream target, String logger, Clock clock) {
    this.target = target;
    this.logger = logger;
    this.clock = clock;
  }

  /** {@code target} writing each line as JSON. */
  static PrintStream wrap(PrintStream target, String logger) {
    return new PrintStream(
        new JsonLines(target, logger, Clock.systemUTC()), true, StandardCharsets.UTF_8);
  }

  @Override
  public synchronized void write(int b) {
    if (b == '\n') {
      emit();
    } else {
      line.write(b);
    }
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) {
    for (int i = off; i < off + len; i++) {
      write(b[i]);
    }
  }

  @Override
  public synchronized void flush() {
    target.flush();
  }

  private void emit() {
    String text = line.toString(StandardCharsets.UTF_8);
    line.reset();
    if (text.endsWith("\r")) {
      text = text.substring(0, text.length() - 1);
    }
    if (text.startsWith("{")) {
      target.println(text);
      return;
    }
    String level = text.startsWith("error:") ? "ERROR" : "INFO";
    target.println(
        "{\"time\":\""
            + TIME.format(clock.instant())
            + "\",\"level\":\""
            + level
            + "\",\"logger\":\""
            + logger
            + "\",\"message\":\""
            + quote(text)
            + "\"}");
  }

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
