package dev.caldera.dsl.internal.tree;

/**
 * A class or {@code any} in a rule.
 *
 * @param name null for {@code any}
 */
public record ClassPattern(String name, Span span) {

  /** Whether this is {@code any}. */
  public boolean isAny() {
    return name == null;
  }

  @Override
  public String toString() {
    return name == null ? "any" : name;
  }
}
