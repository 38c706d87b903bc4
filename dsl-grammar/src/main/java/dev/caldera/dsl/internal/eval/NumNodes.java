package dev.caldera.dsl.internal.eval;

import dev.caldera.dsl.internal.eval.Getters.NumGetter;

/** The number (and duration) evaluators. A missing value is NaN, which no comparison accepts. */
public final class NumNodes {

  private NumNodes() {}

  /** A literal. */
  public static final class Const extends NumNode {
    private final double value;

    public Const(double value) {
      this.value = value;
    }

    @Override
    public double eval(Frame f) {
      return value;
    }
  }

  /** A number attribute; NaN when the object is missing. */
  public static final class Attr<T> extends NumNode {
    private final Nav<T> nav;
    private final NumGetter<T> getter;

    public Attr(Nav<T> nav, NumGetter<T> getter) {
      this.nav = nav;
      this.getter = getter;
    }

    @Override
    public double eval(Frame f) {
      T o = nav.get(f);
      return o == null ? Double.NaN : getter.get(f, o);
    }
  }

  /** {@code l + r}. */
  public static final class Add extends NumNode {
    private final NumNode l;
    private final NumNode r;

    public Add(NumNode l, NumNode r) {
      this.l = l;
      this.r = r;
    }

    @Override
    public double eval(Frame f) {
      return l.eval(f) + r.eval(f);
    }
  }

  /** {@code l - r}. */
  public static final class Sub extends NumNode {
    private final NumNode l;
    private final NumNode r;

    public Sub(NumNode l, NumNode r) {
      this.l = l;
      this.r = r;
    }

    @Override
    public double eval(Frame f) {
      return l.eval(f) - r.eval(f);
    }
  }

  /** One dimension of a vector, in plain units (cores, bytes, cards). */
  public static final class Dim extends NumNode {
    private final VecNode v;
    private final int dim;
    private final double scale;

    public Dim(VecNode v, int dim, double scale) {
      this.v = v;
      this.dim = dim;
      this.scale = scale;
    }

    @Override
    public double eval(Frame f) {
      return v.get(f, dim) / scale;
    }
  }
}
