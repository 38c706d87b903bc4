package dev.caldera.dsl.internal.eval;

import dev.caldera.api.resource.ResourceNames;
import java.util.Map;
import java.util.TreeMap;

/**
 * Attribute evaluators that tell the frame what they read, for {@code explain}: only the program
 * compiled for explaining has them, so deciding pays nothing for them.
 */
public final class Recorded {

  private Recorded() {}

  /**
   * {@code node} (an attribute's evaluator), reporting each value it reads under {@code label}, the
   * attribute as written; {@code selfSlot} is the slot a classifier's relative attribute ({@code
   * owner.kind}) is read for, -1 when the label names its subject itself.
   */
  public static Object wrap(Object node, String label, int selfSlot) {
    if (node instanceof BoolNode b) {
      return new Bool(b, label, selfSlot);
    }
    if (node instanceof NumNode n) {
      return new Num(n, label, selfSlot);
    }
    if (node instanceof StrNode s) {
      return new Str(s, label, selfSlot);
    }
    if (node instanceof MapNode m) {
      return new MapRead(m, label, selfSlot);
    }
    if (node instanceof VecNode v) {
      return new Vec(v, label, selfSlot);
    }
    return node;
  }

  /** A number as a person reads it: {@code 3}, {@code 0.5}. */
  static String number(double v) {
    if (Double.isInfinite(v)) {
      return v > 0 ? "unlimited" : "-unlimited";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return Double.toString(v);
  }

  private static final class Bool extends BoolNode {
    private final BoolNode inner;
    private final String label;
    private final int slot;

    Bool(BoolNode inner, String label, int slot) {
      this.inner = inner;
      this.label = label;
      this.slot = slot;
    }

    @Override
    public boolean eval(Frame f) {
      boolean v = inner.eval(f);
      f.read(slot, label, Boolean.toString(v));
      return v;
    }
  }

  private static final class Num extends NumNode {
    private final NumNode inner;
    private final String label;
    private final int slot;

    Num(NumNode inner, String label, int slot) {
      this.inner = inner;
      this.label = label;
      this.slot = slot;
    }

    @Override
    public double eval(Frame f) {
      double v = inner.eval(f);
      f.read(slot, label, number(v));
      return v;
    }
  }

  private static final class Str extends StrNode {
    private final StrNode inner;
    private final String label;
    private final int slot;

    Str(StrNode inner, String label, int slot) {
      this.inner = inner;
      this.label = label;
      this.slot = slot;
    }

    @Override
    public String eval(Frame f) {
      String v = inner.eval(f);
      f.read(slot, label, v == null ? "(no value)" : '"' + v + '"');
      return v;
    }
  }

  private static final class MapRead extends MapNode {
    private final MapNode inner;
    private final String label;
    private final int slot;

    MapRead(MapNode inner, String label, int slot) {
      this.inner = inner;
      this.label = label;
      this.slot = slot;
    }

    @Override
    public Map<String, String> eval(Frame f) {
      Map<String, String> v = inner.eval(f);
      f.read(slot, label, new TreeMap<>(v).toString());
      return v;
    }
  }

  /** A vector read one dimension at a time: each dimension read joins the label's value. */
  private static final class Vec extends VecNode {
    private final VecNode inner;
    private final String label;
    private final int slot;

    Vec(VecNode inner, String label, int slot) {
      this.inner = inner;
      this.label = label;
      this.slot = slot;
    }

    @Override
    public double get(Frame f, int dim) {
      double v = inner.get(f, dim);
      String name = ResourceNames.nameOf(dim);
      String amount =
          Double.isInfinite(v) || Double.isNaN(v)
              ? number(v)
              : ResourceNames.quantity(name, v).toString();
      f.readDimension(slot, label, name, amount);
      return v;
    }
  }
}
