package dev.caldera.api.resource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * A Kubernetes resource quantity ("500m", "4Gi", "1.5", "3k", "1e3"), held exactly.
 *
 * <p>Parsing follows {@code k8s.io/apimachinery/pkg/api/resource}: an optional sign, a decimal
 * number, then either a binary suffix (Ki, Mi, Gi, Ti, Pi, Ei), a decimal suffix (n, u, m, k, M, G,
 * T, P, E) or a decimal exponent (e3, E-2). {@link #milliValue()} and {@link #value()} round up, as
 * Kubernetes does.
 */
public final class Quantity implements Comparable<Quantity> {

  private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);
  private static final String[] BINARY_SUFFIXES = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  private static final String[] DECIMAL_SUFFIXES = {"k", "M", "G", "T", "P", "E"};

  private final BigDecimal amount;
  private final String text;

  // The two integer views, computed on first use: a session reads every pod's requests, and the
  // BigDecimal arithmetic was a measurable share of opening one. NOT_YET is a possible value too;
  // it is then recomputed on each call, which is still correct.
  private static final long NOT_YET = Long.MIN_VALUE;
  private volatile long milli = NOT_YET;
  private volatile long whole = NOT_YET;

  private Quantity(BigDecimal amount, String text) {
    this.amount = amount;
    this.text = text;
  }

  /**
   * Parses a quantity.
   *
   * @throws IllegalArgumentException naming the text and what a quantity looks like
   */
  public static Quantity parse(String text) {
    Objects.requireNonNull(text, "quantity");
    String s = text.trim();
    if (s.isEmpty()) {
      throw invalid(text);
    }
    int end = s.length();
    int numberEnd = 0;
    if (s.charAt(0) == '+' || s.charAt(0) == '-') {
      numberEnd = 1;
    }
    boolean digits = false;
    while (numberEnd < end
        && (Character.isDigit(s.charAt(numberEnd)) || s.charAt(numberEnd) == '.')) {
      digits |= Character.isDigit(s.charAt(numberEnd));
      numberEnd++;
    }
    if (!digits) {
      throw invalid(text);
    }
    BigDecimal number;
    try {
      number = new BigDecimal(s.substring(0, numberEnd));
    } catch (NumberFormatException e) {
      throw invalid(text);
    }
    String suffix = s.substring(numberEnd);
    BigDecimal multiplier = suffixMultiplier(suffix);
    if (multiplier == null) {
      throw invalid(text);
    }
    return new Quantity(number.multiply(multiplier), s);
  }

  /** A quantity of {@code milli} thousandths, e.g. cpu 1500 gives "1500m". */
  public static Quantity ofMilli(long milli) {
    BigDecimal amount = BigDecimal.valueOf(milli).divide(THOUSAND);
    return new Quantity(amount, formatDecimal(amount));
  }

  /**
   * A whole-unit quantity printed with a binary suffix where exact (memory: 4294967296 gives
   * "4Gi").
   */
  public static Quantity ofBytes(long bytes) {
    return new Quantity(BigDecimal.valueOf(bytes), formatBinary(bytes));
  }

  /** A whole-unit quantity printed as a plain number (pods). */
  public static Quantity of(long units) {
    return new Quantity(BigDecimal.valueOf(units), Long.toString(units));
  }

  private static BigDecimal suffixMultiplier(String suffix) {
    switch (suffix) {
      case "":
        return BigDecimal.ONE;
      case "n":
        return new BigDecimal("1e-9");
      case "u":
        return new BigDecimal("1e-6");
      case "m":
        return new BigDecimal("1e-3");
      default:
        break;
    }
    for (int i = 0; i < BINARY_SUFFIXES.length; i++) {
      if (BINARY_SUFFIXES[i].equals(suffix)) {
        return new BigDecimal(BigInteger.ONE.shiftLeft(10 * (i + 1)));
      }
    }
    for (int i = 0; i < DECIMAL_SUFFIXES.length; i++) {
      if (DECIMAL_SUFFIXES[i].equals(suffix)) {
        return BigDecimal.TEN.pow(3 * (i + 1));
      }
    }
    if (suffix.length() > 1 && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E')) {
      try {
        int exponent = Integer.parseInt(suffix.substring(1));
        if (Math.abs(exponent) > 30) {
          return null;
        }
        return BigDecimal.ONE.scaleByPowerOfTen(exponent);
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return null;
  }

  private static IllegalArgumentException invalid(String text) {
    return new IllegalArgumentException(
        "invalid quantity \""
            + text
            + "\": expected a number with an optional suffix such as 500m, 2, 1.5, 4Gi or 3k");
  }

  /** The exact value in base units. */
  public BigDecimal amount() {
    return amount;
  }

  /** Thousandths, rounded up (Kubernetes {@code MilliValue}). */
  public long milliValue() {
    long m = milli;
    if (m == NOT_YET) {
      m = amount.multiply(THOUSAND).setScale(0, RoundingMode.CEILING).longValueExact();
      milli = m;
    }
    return m;
  }

  /** Whole units, rounded up (Kubernetes {@code Value}). */
  public long value() {
    long v = whole;
    if (v == NOT_YET) {
      v = amount.setScale(0, RoundingMode.CEILING).longValueExact();
      whole = v;
    }
    return v;
  }

  /** True if this quantity is zero. */
  public boolean isZero() {
    return amount.signum() == 0;
  }

  @Override
  public int compareTo(Quantity other) {
    return amount.compareTo(other.amount);
  }

  /** Quantities are equal when their values are, whatever their spelling ("1000m" equals "1"). */
  @Override
  public boolean equals(Object o) {
    return o instanceof Quantity q && amount.compareTo(q.amount) == 0;
  }

  @Override
  public int hashCode() {
    return amount.stripTrailingZeros().hashCode();
  }

  /** The text it was parsed from, or a canonical spelling for computed quantities. */
  @Override
  public String toString() {
    return text;
  }

  private static String formatDecimal(BigDecimal amount) {
    BigDecimal stripped = amount.stripTrailingZeros();
    if (stripped.scale() <= 0) {
      return stripped.toBigInteger().toString();
    }
    BigDecimal milli = amount.multiply(THOUSAND).stripTrailingZeros();
    if (milli.scale() <= 0) {
      return milli.toBigInteger() + "m";
    }
    return stripped.toPlainString();
  }

  private static String formatBinary(long bytes) {
    if (bytes == 0) {
      return "0";
    }
    long value = bytes;
    int suffix = -1;
    while (suffix + 1 < BINARY_SUFFIXES.length && value % 1024 == 0) {
      value /= 1024;
      suffix++;
    }
    if (suffix >= 0) {
      return value + BINARY_SUFFIXES[suffix];
    }
    value = bytes;
    while (suffix + 1 < DECIMAL_SUFFIXES.length && value % 1000 == 0) {
      value /= 1000;
      suffix++;
    }
    return suffix >= 0 ? value + DECIMAL_SUFFIXES[suffix] : Long.toString(bytes);
  }
}
