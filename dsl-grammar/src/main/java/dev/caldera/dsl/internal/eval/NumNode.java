package dev.caldera.dsl.internal.eval;

/** A compiled expression of type double. */
public abstract class NumNode {

  /** The value for the frame's current subjects. */
  public abstract double eval(Frame f);
}
