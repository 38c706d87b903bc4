package dev.caldera.load;

/**
 * When each pod of a paced stream is due. Pods are due in batches of {@code podsTogether}: batch
 * {@code k} at {@code k * podsTogether / rate} seconds after the stream's start, so the stream
 * keeps the rate and a late pod never moves the ones after it (the stream catches up instead of
 * drifting). With 1, every pod is due on its own and pods go out evenly; with a gang's size, a
 * gang's pods are due at once, as a job controller creates a job's pods.
 */
record PaceSchedule(double podsPerSecond, int podsTogether) {

  PaceSchedule {
    if (!(podsPerSecond > 0) || Double.isInfinite(podsPerSecond)) {
      throw new IllegalArgumentException("rate must be positive: " + podsPerSecond);
    }
    if (podsTogether < 1) {
      throw new IllegalArgumentException("pods due together must be 1 or more: " + podsTogether);
    }
  }

  /** Each pod due on its own, evenly at the rate. */
  PaceSchedule(double podsPerSecond) {
    this(podsPerSecond, 1);
  }

  /** Nanoseconds from the stream's start at which pod {@code podIndex} (from 0) is due. */
  long offsetNanos(int podIndex) {
    int firstOfBatch = podIndex - podIndex % podsTogether;
    return Math.round(firstOfBatch * 1e9 / podsPerSecond);
  }

  /** How many pods a stream of {@code seconds} holds: those due before its end, at least one. */
  int podsIn(double seconds) {
    long n = (long) Math.ceil(seconds * podsPerSecond - 1e-9);
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, n));
  }
}
