package dev.caldera.plugins.nodeorder;

import java.util.Arrays;

/** kube-scheduler's score normalisations, in place over the first {@code n} entries. */
final class Normalize {

  static final long MAX_NODE_SCORE = 100;

  private Normalize() {}

  /**
   * {@code helper.DefaultNormalizeScore}: scales to 0..100 against the maximum (integer division);
   * {@code reverse} turns s into 100 − s. When every score is 0 they stay 0, or all become 100 when
   * reversed.
   */
  static void byMax(long[] scores, int n, boolean reverse) {
    long max = 0;
    for (int i = 0; i < n; i++) {
      max = Math.max(max, scores[i]);
    }
    if (max == 0) {
      if (reverse) {
        Arrays.fill(scores, 0, n, MAX_NODE_SCORE);
      }
      return;
    }
    for (int i = 0; i < n; i++) {
      long v = MAX_NODE_SCORE * scores[i] / max;
      scores[i] = reverse ? MAX_NODE_SCORE - v : v;
    }
  }

  /**
   * InterPodAffinity's min-max normalisation: {@code int(100 · (s − min) / (max − min))}, all 0
   * when every score is equal.
   */
  static void minMax(long[] scores, int n) {
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int i = 0; i < n; i++) {
      min = Math.min(min, scores[i]);
      max = Math.max(max, scores[i]);
    }
    long diff = max - min;
    for (int i = 0; i < n; i++) {
      double f = 0;
      if (diff > 0) {
        f = (double) MAX_NODE_SCORE * ((double) (scores[i] - min) / (double) diff);
      }
      scores[i] = (long) f;
    }
  }
}
