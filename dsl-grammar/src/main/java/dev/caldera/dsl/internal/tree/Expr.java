package dev.caldera.dsl.internal.tree;

import java.util.List;

/** An expression of a condition or a classify source. */
public sealed interface Expr {

  /** Where the expression starts (and how much of its first line it covers). */
  Span span();

  /** A bare name: a root such as {@code reclaimee}, or a symbol such as {@code Open}. */
  record Name(String name, Span span) implements Expr {}

  /** {@code target.name}. */
  record Member(Expr target, String name, Span nameSpan, Span span) implements Expr {}

  /** {@code target["key"]}. */
  record Index(Expr target, String key, Span keySpan, Span span) implements Expr {}

  /** {@code operand exists}. */
  record Exists(Expr operand, Span opSpan, Span span) implements Expr {}

  /** A binary operation. */
  record Binary(BinaryOp op, Expr left, Expr right, Span opSpan, Span span) implements Expr {}

  /** {@code not operand}. */
  record Not(Expr operand, Span span) implements Expr {}

  /** {@code operand [not] in [values...]}. */
  record In(Expr operand, boolean negated, List<Expr> values, Span opSpan, Span span)
      implements Expr {
    public In {
      values = List.copyOf(values);
    }
  }

  /** {@code "text"} (the value, unescaped). */
  record StringLit(String value, Span span) implements Expr {}

  /** {@code 42} or {@code 1.5}. */
  record NumberLit(String text, Span span) implements Expr {}

  /** A number with a unit: a quantity ({@code 4Gi}, {@code 500m}) or a duration ({@code 10m}). */
  record SizedLit(String text, Span span) implements Expr {}

  /** {@code true} or {@code false}. */
  record BoolLit(boolean value, Span span) implements Expr {}

  /** {@code (inner)}, kept so that the formatter prints what was written. */
  record Paren(Expr inner, Span span) implements Expr {}

  /** {@code {cpu: 2, memory: 4Gi, "nvidia.com/gpu": 1}}. */
  record ResourceLit(List<ResourceEntry> entries, Span span) implements Expr {
    public ResourceLit {
      entries = List.copyOf(entries);
    }
  }

  /** One dimension of a resource literal; {@code value} is a number or quantity text. */
  record ResourceEntry(String name, Span nameSpan, String value, Span valueSpan) {}

  /** Binary operators, with their source spelling. */
  enum BinaryOp {
    PLUS("+"),
    MINUS("-"),
    EQ("=="),
    NE("!="),
    LT("<"),
    LE("<="),
    GT(">"),
    GE(">="),
    AND("and"),
    OR("or");

    private final String symbol;

    BinaryOp(String symbol) {
      this.symbol = symbol;
    }

    /** How the operator is written. */
    public String symbol() {
      return symbol;
    }

    /** Whether this is one of {@code == != < <= > >=}. */
    public boolean isComparison() {
      return ordinal() >= EQ.ordinal() && ordinal() <= GE.ordinal();
    }

    /** The operator for a spelling, or null. */
    public static BinaryOp of(String symbol) {
      for (BinaryOp op : values()) {
        if (op.symbol.equals(symbol)) {
          return op;
        }
      }
      return null;
    }
  }
}
