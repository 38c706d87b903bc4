package dev.caldera.dsl.internal.eval;

import dev.caldera.dsl.internal.eval.Getters.MapGetter;
import dev.caldera.dsl.internal.eval.Getters.StrGetter;
import java.util.Map;

/** The string evaluators; null means "no value". */
public final class StrNodes {

  private StrNodes() {}

  /** A literal or symbol. */
  public static final class Const extends StrNode {
    private final String value;

    public Const(String value) {
      this.value = value.intern();
    }

    @Override
    public String eval(Frame f) {
      return value;
    }

    String value() {
      return value;
    }
  }

  /** A string attribute; null when the object is missing. */
  public static final class Attr<T> extends StrNode {
    private final Nav<T> nav;
    private final StrGetter<T> getter;

    public Attr(Nav<T> nav, StrGetter<T> getter) {
      this.nav = nav;
      this.getter = getter;
    }

    @Override
    public String eval(Frame f) {
      T o = nav.get(f);
      return o == null ? null : getter.get(f, o);
    }

    Nav<T> nav() {
      return nav;
    }

    StrGetter<T> getter() {
      return getter;
    }
  }

  /** {@code map["key"]}, with the key fixed at compile time. */
  public static final class MapKey extends StrNode {
    private final MapNode map;
    private final String key;

    public MapKey(MapNode map, String key) {
      this.map = map;
      this.key = key.intern();
    }

    @Override
    public String eval(Frame f) {
      return map.eval(f).get(key);
    }
  }

  /** {@code object.map["key"]} in one step: the map attribute and the key fixed at compile time. */
  public static final class MapValue<T> extends StrNode {
    private final Nav<T> nav;
    private final MapGetter<T> getter;
    private final String key;

    public MapValue(Nav<T> nav, MapGetter<T> getter, String key) {
      this.nav = nav;
      this.getter = getter;
      this.key = key.intern();
    }

    @Override
    public String eval(Frame f) {
      T o = nav.get(f);
      return o == null ? null : getter.get(f, o).get(key);
    }

    Nav<T> nav() {
      return nav;
    }

    MapGetter<T> getter() {
      return getter;
    }

    String key() {
      return key;
    }
  }

  /** The name of the subject's class under a classifier ({@code reclaimee.service}). */
  public static final class ClassName extends StrNode {
    private final int slot;
    private final int classifier;
    private final String[] names;

    public ClassName(int slot, int classifier, String[] names) {
      this.slot = slot;
      this.classifier = classifier;
      this.names = names.clone();
    }

    @Override
    public String eval(Frame f) {
      return names[f.classOf(slot, classifier)];
    }
  }

  /** A map attribute (labels, annotations); empty when the object is missing. */
  public static final class MapAttr<T> extends MapNode {
    private final Nav<T> nav;
    private final MapGetter<T> getter;

    public MapAttr(Nav<T> nav, MapGetter<T> getter) {
      this.nav = nav;
      this.getter = getter;
    }

    @Override
    public Map<String, String> eval(Frame f) {
      T o = nav.get(f);
      return o == null ? Map.of() : getter.get(f, o);
    }
  }
}
