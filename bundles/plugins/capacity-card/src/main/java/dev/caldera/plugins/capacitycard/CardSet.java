package dev.caldera.plugins.capacitycard;

import java.util.Arrays;

/**
 * The cards one request may use: a single card, or the alternatives of a multi-model request
 * ({@code A|B}). Equal when the same cards are named, whatever their order; {@link #display()}
 * keeps the order first written, which for a pod is its preference.
 */
final class CardSet {

  private final int[] ordered;
  private final int[] sorted;
  private final String display;

  CardSet(int[] ordered, String display) {
    this.ordered = ordered.clone();
    this.sorted = ordered.clone();
    Arrays.sort(sorted);
    this.display = display;
  }

  /** A set of one card. */
  static CardSet single(int card, String name) {
    return new CardSet(new int[] {card}, name);
  }

  /** The card ids in the order written. */
  int[] ordered() {
    return ordered;
  }

  /** How many cards. */
  int size() {
    return ordered.length;
  }

  /** Whether the set is one card. */
  boolean isSingle() {
    return ordered.length == 1;
  }

  /** The first (or only) card. */
  int first() {
    return ordered[0];
  }

  /** Where {@code card} is in the written order, or -1. */
  int position(int card) {
    for (int i = 0; i < ordered.length; i++) {
      if (ordered[i] == card) {
        return i;
      }
    }
    return -1;
  }

  /** Whether {@code card} is one of the set. */
  boolean contains(int card) {
    return Arrays.binarySearch(sorted, card) >= 0;
  }

  /** Whether every card of this set is in {@code other}. */
  boolean within(CardSet other) {
    for (int c : sorted) {
      if (!other.contains(c)) {
        return false;
      }
    }
    return true;
  }

  /** The names joined with {@code |}, in the order written. */
  String display() {
    return display;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CardSet s && Arrays.equals(sorted, s.sorted);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(sorted);
  }

  @Override
  public String toString() {
    return display;
  }
}
