package dev.caldera.api;

import java.time.Duration;
import java.util.Map;

/**
 * Go's {@code time.ParseDuration}, for the duration arguments and annotations Volcano reads ({@code
 * sla-waiting-time}, {@code volcano.sh/cooldown-time}): a sequence of decimal numbers, each with an
 * optional fraction and a unit ({@code ns}, {@code us}, {@code µs}, {@code ms}, {@code s}, {@code
 * m}, {@code h}), with an optional sign, such as {@code 600s}, {@code 1h30m} or {@code 1.5h}. A
 * bare {@code 0} needs no unit. Results are exact to the nanosecond and limited to Go's ±292 years.
 */
public final class GoDuration {

  private static final long NANOS_PER_MICRO = 1_000L;
  private static final long NANOS_PER_MILLI = 1_000_000L;
  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  private static final Map<String, Long> UNITS =
      Map.of(
          "ns", 1L,
          "us", NANOS_PER_MICRO,
          "\u00b5s", NANOS_PER_MICRO, // micro sign
          "\u03bcs", NANOS_PER_MICRO, // Greek small letter mu
          "ms", NANOS_PER_MILLI,
          "s", NANOS_PER_SECOND,
          "m", 60 * NANOS_PER_SECOND,
          "h", 3600 * NANOS_PER_SECOND);

  /** 1 << 63 as an unsigned 64-bit value, the magnitude bound Go checks against. */
  private static final long TWO_POW_63 = Long.MIN_VALUE;

  private GoDuration() {}

  /**
   * Parses {@code text} as Go does.
   *
   * @throws IllegalArgumentException with Go's message, e.g. {@code time: missing unit in duration
   *     "10"}
   */
  public static Duration parse(String text) {
    String orig = text == null ? "" : text;
    String s = orig;
    boolean neg = false;
    if (!s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
      neg = s.charAt(0) == '-';
      s = s.substring(1);
    }
    if (s.equals("0")) {
      return Duration.ZERO;
    }
    if (s.isEmpty()) {
      throw invalid(orig);
    }
    long total = 0; // unsigned
    int i = 0;
    int n = s.length();
    while (i < n) {
      char c = s.charAt(i);
      if (!(c == '.' || isDigit(c))) {
        throw invalid(orig);
      }
      // [0-9]*
      int start = i;
      long v = 0; // unsigned
      while (i < n && isDigit(s.charAt(i))) {
        if (Long.compareUnsigned(v, Long.divideUnsigned(TWO_POW_63, 10)) > 0) {
          throw invalid(orig);
        }
        v = v * 10 + (s.charAt(i) - '0');
        if (Long.compareUnsigned(v, TWO_POW_63) > 0) {
          throw invalid(orig);
        }
        i++;
      }
      boolean pre = i != start;
      // (\.[0-9]*)?
      long f = 0;
      double scale = 1;
      boolean post = false;
      if (i < n && s.charAt(i) == '.') {
        i++;
        int fractionStart = i;
        boolean overflow = false;
        while (i < n && isDigit(s.charAt(i))) {
          if (!overflow) {
            if (Long.compareUnsigned(f, Long.MAX_VALUE / 10) > 0) {
              overflow = true;
            } else {
              long y = f * 10 + (s.charAt(i) - '0');
              if (Long.compareUnsigned(y, TWO_POW_63) > 0) {
                overflow = true;
              } else {
                f = y;
                scale *= 10;
              }
            }
          }
          i++;
        }
        post = i != fractionStart;
      }
      if (!pre && !post) {
        throw invalid(orig);
      }
      // unit: everything up to the next '.' or digit
      int unitStart = i;
      while (i < n && !(s.charAt(i) == '.' || isDigit(s.charAt(i)))) {
        i++;
      }
      if (i == unitStart) {
        throw new IllegalArgumentException("time: missing unit in duration " + quote(orig));
      }
      String u = s.substring(unitStart, i);
      Long unit = UNITS.get(u);
      if (unit == null) {
        throw new IllegalArgumentException(
            "time: unknown unit " + quote(u) + " in duration " + quote(orig));
      }
      if (Long.compareUnsigned(v, Long.divideUnsigned(TWO_POW_63, unit)) > 0) {
        throw invalid(orig);
      }
      v *= unit;
      if (f != 0) {
        // as Go: a double keeps fractions of hours exact to the nanosecond
        v += (long) (unsignedToDouble(f) * ((double) unit / scale));
        if (Long.compareUnsigned(v, TWO_POW_63) > 0) {
          throw invalid(orig);
        }
      }
      total += v;
      if (Long.compareUnsigned(total, TWO_POW_63) > 0) {
        throw invalid(orig);
      }
    }
    if (neg) {
      return Duration.ofNanos(-total);
    }
    if (Long.compareUnsigned(total, Long.MAX_VALUE) > 0) {
      throw invalid(orig);
    }
    return Duration.ofNanos(total);
  }

  private static double unsignedToDouble(long v) {
    return v >= 0 ? (double) v : (double) (v >>> 1) * 2.0 + (v & 1);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static IllegalArgumentException invalid(String orig) {
    return new IllegalArgumentException("time: invalid duration " + quote(orig));
  }

  private static String quote(String s) {
    return "\"" + s + "\"";
  }
}
