package dev.caldera.dsl.internal.lang;

import dev.caldera.dsl.internal.eval.Nav;
import dev.caldera.dsl.internal.eval.StrNode;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * An object kind a policy reads (task, podgroup, queue, node, owner) with its attributes, sorted by
 * name so that messages list them in a stable order.
 *
 * @param <T> the view type
 */
public final class Entity<T> {

  private final String name;
  private final IntFunction<Nav<T>> nav;
  private final Map<String, Attr<T>> attributes = new TreeMap<>();

  Entity(String name, IntFunction<Nav<T>> nav) {
    this.name = name;
    this.nav = nav;
  }

  public String name() {
    return name;
  }

  /** The attribute called {@code name}, or null. */
  public Attr<T> attribute(String name) {
    return attributes.get(name);
  }

  /** Every attribute name, sorted. */
  public Iterable<String> attributeNames() {
    return attributes.keySet();
  }

  /** How to find this kind of object for the subject in {@code slot}. */
  public Nav<T> nav(int slot) {
    return nav.apply(slot);
  }

  /** The evaluator of attribute {@code name} for the subject in {@code slot}. */
  public Object node(String name, int slot) {
    return attributes.get(name).node(nav(slot));
  }

  /** The evaluator of {@code name["key"]} for a map attribute {@code name}, else null. */
  public StrNode valueNode(String name, int slot, String key) {
    return attributes.get(name).valueNode(nav(slot), key);
  }

  Entity<T> add(Attr<T> attr) {
    attributes.put(attr.name(), attr);
    return this;
  }

  @Override
  public String toString() {
    return name;
  }
}
