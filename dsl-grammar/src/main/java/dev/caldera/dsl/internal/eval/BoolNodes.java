package dev.caldera.dsl.internal.eval;

import dev.caldera.api.resource.ResourceNames;
import dev.caldera.dsl.internal.eval.Getters.BoolGetter;
import dev.caldera.support.resource.Resource;

/** The boolean evaluators, one small final class per node kind. */
public final class BoolNodes {

  private BoolNodes() {}

  /** Comparison operators, as compiled. */
  public enum Op {
    EQ,
    NE,
    LT,
    LE,
    GT,
    GE
  }

  /** {@code true} or {@code false}. */
  public static final class Const extends BoolNode {
    private final boolean value;

    public Const(boolean value) {
      this.value = value;
    }

    @Override
    public boolean eval(Frame f) {
      return value;
    }

    boolean value() {
      return value;
    }
  }

  /** {@code l and r}. */
  public static final class And extends BoolNode {
    private final BoolNode l;
    private final BoolNode r;

    public And(BoolNode l, BoolNode r) {
      this.l = l;
      this.r = r;
    }

    @Override
    public boolean eval(Frame f) {
      return l.eval(f) && r.eval(f);
    }

    BoolNode left() {
      return l;
    }

    BoolNode right() {
      return r;
    }
  }

  /** {@code l or r}. */
  public static final class Or extends BoolNode {
    private final BoolNode l;
    private final BoolNode r;

    public Or(BoolNode l, BoolNode r) {
      this.l = l;
      this.r = r;
    }

    @Override
    public boolean eval(Frame f) {
      return l.eval(f) || r.eval(f);
    }

    BoolNode left() {
      return l;
    }

    BoolNode right() {
      return r;
    }
  }

  /** {@code not e}. */
  public static final class Not extends BoolNode {
    private final BoolNode e;

    public Not(BoolNode e) {
      this.e = e;
    }

    @Override
    public boolean eval(Frame f) {
      return !e.eval(f);
    }

    BoolNode operand() {
      return e;
    }
  }

  /** A boolean attribute; false when the object is missing. */
  public static final class Attr<T> extends BoolNode {
    private final Nav<T> nav;
    private final BoolGetter<T> getter;

    public Attr(Nav<T> nav, BoolGetter<T> getter) {
      this.nav = nav;
      this.getter = getter;
    }

    @Override
    public boolean eval(Frame f) {
      T o = nav.get(f);
      return o != null && getter.get(f, o);
    }

    Nav<T> nav() {
      return nav;
    }

    BoolGetter<T> getter() {
      return getter;
    }
  }

  /** {@code l == r} or {@code l != r} on booleans. */
  public static final class BoolEquals extends BoolNode {
    private final BoolNode l;
    private final BoolNode r;
    private final boolean negated;

    public BoolEquals(BoolNode l, BoolNode r, boolean negated) {
      this.l = l;
      this.r = r;
      this.negated = negated;
    }

    @Override
    public boolean eval(Frame f) {
      return (l.eval(f) == r.eval(f)) != negated;
    }
  }

  /** {@code s exists}: the string has a value. */
  public static final class Exists extends BoolNode {
    private final StrNode s;

    public Exists(StrNode s) {
      this.s = s;
    }

    @Override
    public boolean eval(Frame f) {
      return s.eval(f) != null;
    }

    StrNode operand() {
      return s;
    }
  }

  /** {@code l == r} or {@code l != r} on strings; a missing value equals nothing. */
  public static final class StrEquals extends BoolNode {
    private final StrNode l;
    private final StrNode r;
    private final boolean negated;

    public StrEquals(StrNode l, StrNode r, boolean negated) {
      this.l = l;
      this.r = r;
      this.negated = negated;
    }

    @Override
    public boolean eval(Frame f) {
      String a = l.eval(f);
      String b = r.eval(f);
      return (a != null && a.equals(b)) != negated;
    }

    StrNode left() {
      return l;
    }

    StrNode right() {
      return r;
    }

    boolean negated() {
      return negated;
    }
  }

  /** {@code s [not] in ["a", "b"]}. */
  public static final class StrIn extends BoolNode {
    private final StrNode s;
    private final String[] values;
    private final boolean negated;

    public StrIn(StrNode s, String[] values, boolean negated) {
      this.s = s;
      this.values = new String[values.length];
      for (int i = 0; i < values.length; i++) {
        this.values[i] = values[i].intern();
      }
      this.negated = negated;
    }

    @Override
    public boolean eval(Frame f) {
      String v = s.eval(f);
      boolean found = false;
      if (v != null) {
        for (String candidate : values) {
          if (candidate.equals(v)) {
            found = true;
            break;
          }
        }
      }
      return found != negated;
    }
  }

  /** {@code n [not] in [1, 2]}. */
  public static final class NumIn extends BoolNode {
    private final NumNode n;
    private final double[] values;
    private final boolean negated;

    public NumIn(NumNode n, double[] values, boolean negated) {
      this.n = n;
      this.values = values.clone();
      this.negated = negated;
    }

    @Override
    public boolean eval(Frame f) {
      double v = n.eval(f);
      boolean found = false;
      for (double candidate : values) {
        if (candidate == v) {
          found = true;
          break;
        }
      }
      return found != negated;
    }
  }

  /** A comparison of numbers or durations; a missing value (NaN) makes it false, even for !=. */
  public static final class NumCompare extends BoolNode {
    private final Op op;
    private final NumNode l;
    private final NumNode r;

    public NumCompare(Op op, NumNode l, NumNode r) {
      this.op = op;
      this.l = l;
      this.r = r;
    }

    @Override
    public boolean eval(Frame f) {
      double a = l.eval(f);
      double b = r.eval(f);
      if (a != a || b != b) {
        return false;
      }
      return switch (op) {
        case EQ -> a == b;
        case NE -> a != b;
        case LT -> a < b;
        case LE -> a <= b;
        case GT -> a > b;
        case GE -> a >= b;
      };
    }
  }

  /**
   * A per-dimension comparison of resource vectors over every known dimension but {@code pods}:
   * {@code <=} holds when each dimension is at most the other plus Volcano's ε; {@code <} when each
   * dimension that is not zero on both sides is strictly less; {@code ==} when each differs by less
   * than ε; {@code >=} and {@code >} are the mirror images and {@code !=} the negation of {@code
   * ==}.
   */
  public static final class VecCompare extends BoolNode {
    private final Op op;
    private final VecNode l;
    private final VecNode r;

    public VecCompare(Op op, VecNode l, VecNode r) {
      this.op = op;
      this.l = l;
      this.r = r;
    }

    @Override
    public boolean eval(Frame f) {
      return switch (op) {
        case LE -> lessEqual(f, l, r);
        case GE -> lessEqual(f, r, l);
        case LT -> less(f, l, r);
        case GT -> less(f, r, l);
        case EQ -> equal(f);
        case NE -> !equal(f);
      };
    }

    private static boolean lessEqual(Frame f, VecNode a, VecNode b) {
      int n = ResourceNames.count();
      for (int d = 0; d < n; d++) {
        if (VecNode.skipped(d)) {
          continue;
        }
        double x = a.get(f, d);
        double y = b.get(f, d);
        if (!(x <= y || x - y < Resource.EPSILON)) {
          return false;
        }
      }
      return true;
    }

    private static boolean less(Frame f, VecNode a, VecNode b) {
      int n = ResourceNames.count();
      for (int d = 0; d < n; d++) {
        if (VecNode.skipped(d)) {
          continue;
        }
        double x = a.get(f, d);
        double y = b.get(f, d);
        if (x == 0 && y == 0) {
          continue;
        }
        if (!(x < y)) {
          return false;
        }
      }
      return true;
    }

    private boolean equal(Frame f) {
      int n = ResourceNames.count();
      for (int d = 0; d < n; d++) {
        if (VecNode.skipped(d)) {
          continue;
        }
        double x = l.get(f, d);
        double y = r.get(f, d);
        if (!(x == y || Math.abs(x - y) < Resource.EPSILON)) {
          return false;
        }
      }
      return true;
    }
  }
}
