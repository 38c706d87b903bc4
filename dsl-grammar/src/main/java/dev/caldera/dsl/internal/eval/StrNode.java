package dev.caldera.dsl.internal.eval;

/**
 * A compiled expression of type string; null means "no value" (an absent label, a missing owner).
 */
public abstract class StrNode {

  /** The value for the frame's current subjects. */
  public abstract String eval(Frame f);
}
