package dev.caldera.framework.internal.actions;

import java.util.Arrays;

/**
 * A tournament tree over node indices that keeps the best node under allocate's order: a node whose
 * idle holds the task before one that needs releasing resources, then the higher score, then the
 * lower index (the first in candidate order, as the full scan's tie-break). Failed nodes rank last.
 * Changing one node's rank costs O(log n); the best node is read in O(1).
 */
final class BestNodeTree {

  private final byte[] gradient;
  private final double[] score;
  private final int leaves;
  private final int[] winner;

  /**
   * A tree over {@code gradient.length} nodes that reads the ranks from the two arrays, which the
   * caller owns and changes before calling {@link #update}.
   */
  BestNodeTree(byte[] gradient, double[] score) {
    this.gradient = gradient;
    this.score = score;
    int size = 1;
    while (size < gradient.length) {
      size <<= 1;
    }
    this.leaves = size;
    this.winner = new int[2 * size];
    Arrays.fill(winner, -1);
    for (int i = 0; i < gradient.length; i++) {
      winner[size + i] = i;
    }
    rebuild();
  }

  /** Re-ranks every node, after many changed at once. */
  void rebuild() {
    for (int p = leaves - 1; p >= 1; p--) {
      winner[p] = better(winner[2 * p], winner[2 * p + 1]);
    }
  }

  /** Re-ranks node {@code i} after its gradient or score changed. */
  void update(int i) {
    int p = (leaves + i) >>> 1;
    while (p >= 1) {
      winner[p] = better(winner[2 * p], winner[2 * p + 1]);
      p >>>= 1;
    }
  }

  /** The best node, or -1 when there are no nodes. */
  int best() {
    return gradient.length == 0 ? -1 : winner[1];
  }

  private int better(int a, int b) {
    if (a < 0) {
      return b;
    }
    if (b < 0) {
      return a;
    }
    if (gradient[a] != gradient[b]) {
      return gradient[a] > gradient[b] ? a : b;
    }
    // Compared as the full scan does (the first strictly greater score wins), so that equal
    // scores keep the lower index whatever their bit patterns.
    if (score[b] > score[a]) {
      return b;
    }
    if (score[a] > score[b]) {
      return a;
    }
    return Math.min(a, b);
  }
}
