package dev.caldera.load;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as the options take them ({@code 60s}, {@code 1.5s}, {@code 500ms}, {@code 2m}). */
final class Durations {

  private static final Pattern DURATION =
      Pattern.compile("(\\d+(?:\\.\\d+)?|\\.\\d+)\\s*(ms|s|m|h)?", Pattern.CASE_INSENSITIVE);

  private Durations() {}

  /**
   * A number with a unit, {@code ms}, {@code s}, {@code m} or {@code h}; a number alone is seconds.
   *
   * @throws IllegalArgumentException if {@code text} is not such a duration
   */
  static Duration parse(String text) {
    Matcher m = DURATION.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("not a duration: " + text);
    }
    BigDecimal amount = new BigDecimal(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2).toLowerCase(Locale.ROOT);
    BigDecimal millisPerUnit =
        switch (unit) {
          case "ms" -> BigDecimal.ONE;
          case "s" -> BigDecimal.valueOf(1_000);
          case "m" -> BigDecimal.valueOf(60_000);
          default -> BigDecimal.valueOf(3_600_000);
        };
    return Duration.ofNanos(amount.multiply(millisPerUnit).movePointRight(6).longValue());
  }

  /** Seconds with up to three decimals and no trailing zeros: {@code 60s}, {@code 1.5s}. */
  static String format(Duration d) {
    BigDecimal seconds = BigDecimal.valueOf(d.toMillis()).movePointLeft(3).stripTrailingZeros();
    return seconds.toPlainString() + "s";
  }
}
