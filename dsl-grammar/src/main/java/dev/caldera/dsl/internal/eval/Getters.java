package dev.caldera.dsl.internal.eval;

import dev.caldera.api.resource.ResourceView;
import java.util.Map;

/** Accessor shapes: how a compiled attribute reads a value from its object. */
public final class Getters {

  private Getters() {}

  /** Reads a boolean. */
  @FunctionalInterface
  public interface BoolGetter<T> {
    boolean get(Frame f, T o);
  }

  /** Reads a number (durations in milliseconds). */
  @FunctionalInterface
  public interface NumGetter<T> {
    double get(Frame f, T o);
  }

  /** Reads a string; null for "no value". */
  @FunctionalInterface
  public interface StrGetter<T> {
    String get(Frame f, T o);
  }

  /** Reads a map. */
  @FunctionalInterface
  public interface MapGetter<T> {
    Map<String, String> get(Frame f, T o);
  }

  /** Reads a resource vector; null reads as all zero. */
  @FunctionalInterface
  public interface VecGetter<T> {
    ResourceView get(Frame f, T o);
  }
}
