package dev.caldera.dsl.internal.eval;

import dev.caldera.api.resource.ResourceView;
import dev.caldera.dsl.internal.eval.Getters.VecGetter;
import dev.caldera.support.resource.Resource;

/** The resource-vector evaluators. */
public final class VecNodes {

  private VecNodes() {}

  /** A literal such as {@code {cpu: 2, memory: 4Gi}}. */
  public static final class Const extends VecNode {
    private final Resource value;

    public Const(Resource value) {
      this.value = value.copy();
    }

    @Override
    public double get(Frame f, int dim) {
      return value.get(dim);
    }
  }

  /**
   * A vector attribute; all zero when the object is missing. With {@code unlimited}, an absent
   * scalar dimension reads as +Infinity (capability).
   */
  public static final class Attr<T> extends VecNode {
    private final Nav<T> nav;
    private final VecGetter<T> getter;
    private final boolean unlimited;

    public Attr(Nav<T> nav, VecGetter<T> getter, boolean unlimited) {
      this.nav = nav;
      this.getter = getter;
      this.unlimited = unlimited;
    }

    @Override
    public double get(Frame f, int dim) {
      T o = nav.get(f);
      ResourceView r = o == null ? null : getter.get(f, o);
      if (r == null) {
        return 0;
      }
      if (unlimited && !r.has(dim)) {
        return Double.POSITIVE_INFINITY;
      }
      return r.get(dim);
    }
  }

  /** {@code l + r}, per dimension. */
  public static final class Add extends VecNode {
    private final VecNode l;
    private final VecNode r;

    public Add(VecNode l, VecNode r) {
      this.l = l;
      this.r = r;
    }

    @Override
    public double get(Frame f, int dim) {
      return l.get(f, dim) + r.get(f, dim);
    }
  }

  /** {@code l - r}, per dimension. */
  public static final class Sub extends VecNode {
    private final VecNode l;
    private final VecNode r;

    public Sub(VecNode l, VecNode r) {
      this.l = l;
      this.r = r;
    }

    @Override
    public double get(Frame f, int dim) {
      return l.get(f, dim) - r.get(f, dim);
    }
  }
}
