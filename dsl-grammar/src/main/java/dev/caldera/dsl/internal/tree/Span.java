package dev.caldera.dsl.internal.tree;

/**
 * Where a syntax node starts in its source, and how many characters of that line it covers.
 *
 * @param line 1-based
 * @param column 1-based, in characters
 * @param length at least 1
 */
public record Span(int line, int column, int length) implements Comparable<Span> {

  /** Before everything: for diagnostics that concern the whole file. */
  public static final Span START = new Span(1, 1, 1);

  public Span {
    length = Math.max(1, length);
  }

  @Override
  public int compareTo(Span o) {
    return line != o.line ? Integer.compare(line, o.line) : Integer.compare(column, o.column);
  }

  /** From this span's start to the end of {@code end}, when both are on one line. */
  public Span to(Span end) {
    if (end.line != line) {
      return this;
    }
    return new Span(line, column, end.column + end.length - column);
  }
}
