package dev.caldera.api.resource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * A Kubernetes resource quantity ("500m", "4Gi", "1.5", "3k", "1e3"), held exactly (up to the
 * bounds {@link #parse} states for very long numbers).
 *
 * <p>Parsing follows {@code k8s.io/apimachinery/pkg/api/resource}: an optional sign, a decimal
 * number, then either a binary suffix (Ki, Mi, Gi, Ti, Pi, Ei), a decimal suffix (n, u, m, k, M, G,
 * T, P, E) or a decimal exponent (e3, E-2), with ASCII digits only. {@link #milliValue()} and
 * {@link #value()} round up, as Kubernetes does.
 */
public final class Quantity implements Comparable<Quantity> {

  /** The largest number of integer digits, and of decimals, read exactly. */
  static final int EXACT_DIGITS = 64;

  /** How much of a quantity's text an error message shows. */
  public static final int SHOWN_CHARACTERS = 64;

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
   * Parses a quantity. Digits are ASCII only, as in Kubernetes' quantity grammar. The number is
   * read exactly up to {@value #EXACT_DIGITS} significant integer digits and {@value #EXACT_DIGITS}
   * decimals; further integer digits count as zeros (such a number is far beyond what any object
   * may hold, see the bounds sessions check) and further decimals round the last one up (Kubernetes
   * rounds to 10<sup>-9</sup> anyway), so a long text costs time linear in its length.
   *
   * @throws IllegalArgumentException naming the text (at most {@value #SHOWN_CHARACTERS} characters
   *     of it, see {@link #shown}) and what a quantity looks like
   */
  public static Quantity parse(String text) {
    Objects.requireNonNull(text, "quantity");
    String s = text.trim();
    int end = s.length();
    int pos = 0;
    boolean negative = false;
    if (pos < end && (s.charAt(pos) == '+' || s.charAt(pos) == '-')) {
      negative = s.charAt(pos) == '-';
      pos++;
    }
    int intStart = pos;
    while (pos < end && isAsciiDigit(s.charAt(pos))) {
      pos++;
    }
    int intEnd = pos;
    int fracStart = pos;
    int fracEnd = pos;
    if (pos < end && s.charAt(pos) == '.') {
      fracStart = ++pos;
      while (pos < end && isAsciiDigit(s.charAt(pos))) {
        pos++;
      }
      fracEnd = pos;
    }
    if (intEnd == intStart && fracEnd == fracStart) {
      throw invalid(text);
    }
    BigDecimal multiplier = suffixMultiplier(s.substring(pos));
    if (multiplier == null) {
      throw invalid(text);
    }
    BigDecimal number = number(s, intStart, intEnd, fracStart, fracEnd);
    return new Quantity((negative ? number.negate() : number).multiply(multiplier), s);
  }

  /**
   * {@code text} for a message: whole when at most {@value #SHOWN_CHARACTERS} characters, else its
   * first {@value #SHOWN_CHARACTERS} and its length, e.g. {@code 1234…(5000 characters)}.
   */
  public static String shown(String text) {
    if (text.length() <= SHOWN_CHARACTERS) {
      return text;
    }
    int cut = SHOWN_CHARACTERS;
    if (Character.isHighSurrogate(text.charAt(cut - 1))) {
      cut--;
    }
    return text.substring(0, cut) + "…(" + text.length() + " characters)";
  }

  private static boolean isAsciiDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** The unsigned number of ASCII digits {@code int.frac}, bounded as {@link #parse} says. */
  private static BigDecimal number(String s, int intStart, int intEnd, int fracStart, int fracEnd) {
    while (intStart < intEnd && s.charAt(intStart) == '0') {
      intStart++;
    }
    int intDigits = intEnd - intStart;
    if (intDigits > EXACT_DIGITS) {
      BigInteger leading = new BigInteger(s.substring(intStart, intStart + EXACT_DIGITS));
      return new BigDecimal(leading, -(intDigits - EXACT_DIGITS));
    }
    int decimals = Math.min(fracEnd - fracStart, EXACT_DIGITS);
    StringBuilder digits = new StringBuilder(intDigits + decimals + 1);
    digits.append(s, intStart, intEnd).append(s, fracStart, fracStart + decimals);
    BigInteger unscaled =
        digits.length() == 0 ? BigInteger.ZERO : new BigInteger(digits.toString());
    for (int i = fracStart + decimals; i < fracEnd; i++) {
      if (s.charAt(i) != '0') {
        unscaled = unscaled.add(BigInteger.ONE);
        break;
      }
    }
    return new BigDecimal(unscaled, decimals);
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
      return exponentMultiplier(suffix);
    }
    return null;
  }

  /** {@code e3}, {@code E-2}: a signed exponent of ASCII digits, at most 30 either way. */
  private static BigDecimal exponentMultiplier(String suffix) {
    int i = 1;
    boolean negative = false;
    if (suffix.charAt(i) == '+' || suffix.charAt(i) == '-') {
      negative = suffix.charAt(i) == '-';
      i++;
    }
    if (i == suffix.length() || suffix.length() - i > 9) {
      return null;
    }
    int exponent = 0;
    for (; i < suffix.length(); i++) {
      if (!isAsciiDigit(suffix.charAt(i))) {
        return null;
      }
      exponent = exponent * 10 + (suffix.charAt(i) - '0');
    }
    if (exponent > 30) {
      return null;
    }
    return BigDecimal.ONE.scaleByPowerOfTen(negative ? -exponent : exponent);
  }

  private static IllegalArgumentException invalid(String text) {
    return new IllegalArgumentException(
        "invalid quantity \""
            + shown(text)
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
