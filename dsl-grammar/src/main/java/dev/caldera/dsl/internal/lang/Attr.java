package dev.caldera.dsl.internal.lang;

import dev.caldera.dsl.internal.eval.BoolNodes;
import dev.caldera.dsl.internal.eval.Getters.BoolGetter;
import dev.caldera.dsl.internal.eval.Getters.MapGetter;
import dev.caldera.dsl.internal.eval.Getters.NumGetter;
import dev.caldera.dsl.internal.eval.Getters.StrGetter;
import dev.caldera.dsl.internal.eval.Getters.VecGetter;
import dev.caldera.dsl.internal.eval.Nav;
import dev.caldera.dsl.internal.eval.NumNodes;
import dev.caldera.dsl.internal.eval.StrNode;
import dev.caldera.dsl.internal.eval.StrNodes;
import dev.caldera.dsl.internal.eval.VecNodes;

/**
 * One attribute of an object kind: its type and its accessor. {@link #node} makes the evaluator
 * that reads it through a navigation, so the name is resolved once, at compile time.
 *
 * @param <T> the object type
 */
public abstract class Attr<T> {

  private final String name;
  private final Type type;
  private final boolean usesAllocation;

  Attr(String name, Type type, boolean usesAllocation) {
    this.name = name;
    this.type = type;
    this.usesAllocation = usesAllocation;
  }

  public String name() {
    return name;
  }

  public Type type() {
    return type;
  }

  /** Whether reading it needs the queues' live allocation. */
  public boolean usesAllocation() {
    return usesAllocation;
  }

  /** The evaluator ({@code BoolNode}, {@code NumNode}, ...), or null for an object attribute. */
  public abstract Object node(Nav<T> nav);

  /** For a map attribute, the evaluator of {@code map["key"]}; null otherwise. */
  public StrNode valueNode(Nav<T> nav, String key) {
    return null;
  }

  /** An attribute that leads to another object of the same subject (task → queue). */
  public static final class ToEntity<T> extends Attr<T> {
    private final Entity<?> target;

    ToEntity(String name, Entity<?> target) {
      super(name, null, false);
      this.target = target;
    }

    public Entity<?> target() {
      return target;
    }

    @Override
    public Type type() {
      return Type.entity(target);
    }

    @Override
    public Object node(Nav<T> nav) {
      return null;
    }
  }

  static final class Bool<T> extends Attr<T> {
    private final BoolGetter<T> getter;

    Bool(String name, BoolGetter<T> getter) {
      super(name, Type.BOOL, false);
      this.getter = getter;
    }

    @Override
    public Object node(Nav<T> nav) {
      return new BoolNodes.Attr<>(nav, getter);
    }
  }

  static final class Num<T> extends Attr<T> {
    private final NumGetter<T> getter;

    Num(String name, Type type, boolean usesAllocation, NumGetter<T> getter) {
      super(name, type, usesAllocation);
      this.getter = getter;
    }

    @Override
    public Object node(Nav<T> nav) {
      return new NumNodes.Attr<>(nav, getter);
    }
  }

  static final class Str<T> extends Attr<T> {
    private final StrGetter<T> getter;

    Str(String name, Type type, StrGetter<T> getter) {
      super(name, type, false);
      this.getter = getter;
    }

    @Override
    public Object node(Nav<T> nav) {
      return new StrNodes.Attr<>(nav, getter);
    }
  }

  static final class MapAttr<T> extends Attr<T> {
    private final MapGetter<T> getter;

    MapAttr(String name, MapGetter<T> getter) {
      super(name, Type.MAP, false);
      this.getter = getter;
    }

    @Override
    public Object node(Nav<T> nav) {
      return new StrNodes.MapAttr<>(nav, getter);
    }

    @Override
    public StrNode valueNode(Nav<T> nav, String key) {
      return new StrNodes.MapValue<>(nav, getter, key);
    }
  }

  static final class Vec<T> extends Attr<T> {
    private final VecGetter<T> getter;
    private final boolean unlimited;

    Vec(String name, boolean usesAllocation, boolean unlimited, VecGetter<T> getter) {
      super(name, Type.RESOURCES, usesAllocation);
      this.getter = getter;
      this.unlimited = unlimited;
    }

    @Override
    public Object node(Nav<T> nav) {
      return new VecNodes.Attr<>(nav, getter, unlimited);
    }
  }
}
