package dev.caldera.load;

import java.util.Arrays;

/** Percentiles of a sample by the nearest-rank method: always a value of the sample. */
final class Percentiles {

  private final long[] sorted;

  private Percentiles(long[] sorted) {
    this.sorted = sorted;
  }

  /** The percentiles of {@code values} (copied). */
  static Percentiles of(long[] values) {
    long[] copy = values.clone();
    Arrays.sort(copy);
    return new Percentiles(copy);
  }

  int count() {
    return sorted.length;
  }

  /**
   * The smallest value that at least {@code p} percent of the sample does not exceed ({@code 0 < p
   * <= 100}): the value of rank {@code ceil(p / 100 * n)}.
   *
   * @throws IllegalStateException for an empty sample
   */
  long get(double p) {
    if (!(p > 0 && p <= 100)) {
      throw new IllegalArgumentException("percentile must be in (0, 100]: " + p);
    }
    if (sorted.length == 0) {
      throw new IllegalStateException("no values");
    }
    int rank = (int) Math.ceil(p / 100 * sorted.length - 1e-9);
    return sorted[Math.max(1, rank) - 1];
  }

  long max() {
    return get(100);
  }
}
