package dev.caldera.framework.internal.session;

import dev.caldera.api.ExtensionPoint;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The functions of one extension point that take part in a session: per tier in conf order, each
 * with its {@link Registered descriptor}, fixed once every plugin has opened.
 */
final class Tiers<T> {

  private final ExtensionPoint<T> point;
  private final List<List<Registered<T>>> tiers;
  private final List<Registered<T>> all;

  Tiers(ExtensionPoint<T> point, List<List<Registered<T>>> tiers) {
    this.point = point;
    List<List<Registered<T>>> copy = new ArrayList<>();
    List<Registered<T>> flat = new ArrayList<>();
    for (List<Registered<T>> tier : tiers) {
      copy.add(List.copyOf(tier));
      flat.addAll(tier);
    }
    this.tiers = List.copyOf(copy);
    this.all = List.copyOf(flat);
  }

  ExtensionPoint<T> point() {
    return point;
  }

  /** The descriptors per tier. */
  List<List<Registered<T>>> tiers() {
    return tiers;
  }

  /** Every descriptor, flattened over the tiers in order. */
  List<Registered<T>> all() {
    return all;
  }

  /** Every function, flattened over the tiers in order. */
  T[] fns(IntFunction<T[]> array) {
    T[] out = array.apply(all.size());
    for (int i = 0; i < out.length; i++) {
      out[i] = all.get(i).fn();
    }
    return out;
  }

  /** Every function, flattened over the tiers in order. */
  List<T> fnList() {
    List<T> out = new ArrayList<>(all.size());
    all.forEach(r -> out.add(r.fn()));
    return List.copyOf(out);
  }

  /** The functions per tier. */
  List<List<T>> fnTiers() {
    List<List<T>> out = new ArrayList<>(tiers.size());
    for (List<Registered<T>> tier : tiers) {
      List<T> fns = new ArrayList<>(tier.size());
      tier.forEach(r -> fns.add(r.fn()));
      out.add(List.copyOf(fns));
    }
    return List.copyOf(out);
  }
}
