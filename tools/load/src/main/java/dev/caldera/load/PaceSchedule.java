package dev.caldera.load;

/**
 * When each pod of a paced stream is due: pod {@code i} at {@code i / rate} seconds after the
 * stream's start, so pods go out evenly at the rate, a gang's pods one after the other like any
 * others, and a late pod never moves the ones after it (the stream catches up instead of drifting).
 */
record PaceSchedule(double podsPerSecond) {

  PaceSchedule {
    if (!(podsPerSecond > 0) || Double.isInfinite(podsPerSecond)) {
      throw new IllegalArgumentException("rate must be positive: " + podsPerSecond);
    }
  }

  /** Nanoseconds from the stream's start at which pod {@code podIndex} (from 0) is due. */
  long offsetNanos(int podIndex) {
    return Math.round(podIndex * 1e9 / podsPerSecond);
  }

  /** How many pods a stream of {@code seconds} holds: those due before its end, at least one. */
  int podsIn(double seconds) {
    long n = (long) Math.ceil(seconds * podsPerSecond - 1e-9);
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, n));
  }
}
