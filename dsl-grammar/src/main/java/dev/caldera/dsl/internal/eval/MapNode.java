package dev.caldera.dsl.internal.eval;

import java.util.Map;

/** A compiled map expression (labels, annotations); only ever indexed. */
public abstract class MapNode {

  /** The map; empty when the object is missing. */
  public abstract Map<String, String> eval(Frame f);
}
