package dev.caldera.dsl.internal.eval;

/** A compiled expression of type boolean. */
public abstract class BoolNode {

  /** The value for the frame's current subjects. */
  public abstract boolean eval(Frame f);
}
