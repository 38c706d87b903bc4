package dev.caldera.dsl.internal.eval;

import dev.caldera.api.resource.ResourceNames;

/**
 * A compiled resource-vector expression, read one dimension at a time so that sums and comparisons
 * need no temporary vectors. Values are in {@code Resource}'s internal units (milli-cpu, bytes).
 */
public abstract class VecNode {

  /** The value at dimension {@code dim}; 0 when absent, +Infinity when unlimited. */
  public abstract double get(Frame f, int dim);

  /** The dimensions compared: every known resource name but {@code pods}. */
  static boolean skipped(int dim) {
    return dim == ResourceNames.PODS_INDEX;
  }
}
