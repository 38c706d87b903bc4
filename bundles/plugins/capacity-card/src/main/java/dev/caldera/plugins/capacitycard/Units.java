package dev.caldera.plugins.capacitycard;

import dev.caldera.api.resource.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;

/** Prints amounts for people: cards as counts, CPU in cores or millicores, memory in Mi or Gi. */
final class Units {

  private static final long MI = 1L << 20;
  private static final long GI = 1L << 30;

  private Units() {}

  /** A card count: {@code 3}, or {@code 0.5} for a fraction. */
  static String cards(double count) {
    return BigDecimal.valueOf(count)
        .setScale(3, RoundingMode.HALF_UP)
        .stripTrailingZeros()
        .toPlainString();
  }

  /** Milli-cpu as cores ({@code 2}) when whole, else millicores ({@code 1500m}). */
  static String cpu(double milli) {
    return Quantity.ofMilli(Math.round(milli)).toString();
  }

  /**
   * Bytes as {@code 4Gi} when a whole number of GiB, else in MiB ({@code 100Mi}, {@code 0.5Mi}).
   */
  static String memory(double bytes) {
    long b = Math.round(bytes);
    if (b != 0 && b % GI == 0) {
      return (b / GI) + "Gi";
    }
    if (b % MI == 0) {
      return (b / MI) + "Mi";
    }
    return BigDecimal.valueOf(b)
            .divide(BigDecimal.valueOf(MI), 2, RoundingMode.HALF_UP)
            .stripTrailingZeros()
            .toPlainString()
        + "Mi";
  }
}
