package dev.caldera.api.resource;

/** How a scalar resource that is absent on one side of a comparison is treated. */
public enum Dimension {
  /** An absent scalar counts as zero. */
  ZERO,
  /** An absent scalar counts as unlimited. */
  INFINITY
}
