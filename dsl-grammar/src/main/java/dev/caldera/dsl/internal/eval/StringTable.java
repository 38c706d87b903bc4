package dev.caldera.dsl.internal.eval;

import java.util.Arrays;

/**
 * A fixed string-to-int table with at most one probe per lookup: its size is the smallest power of
 * two at which every key's spread hash lands in its own slot (a perfect hash, found at compile
 * time). A classifier's keys are a handful of words, so the table stays small; where no size up to
 * {@link #MAX_SLOTS} separates them, lookups fall back to scanning the keys.
 */
final class StringTable {

  private static final int MAX_SLOTS = 1 << 12;

  private final String[] keys;
  private final int[] hashes;
  private final int[] values;
  private final int mask;
  private final boolean perfect;

  StringTable(String[] keys, int[] values) {
    int size = Integer.highestOneBit(Math.max(1, keys.length * 2 - 1)) << 1;
    while (size <= MAX_SLOTS && !separates(keys, size - 1)) {
      size <<= 1;
    }
    this.perfect = size <= MAX_SLOTS;
    if (perfect) {
      this.mask = size - 1;
      this.keys = new String[size];
      this.hashes = new int[size];
      this.values = new int[size];
      for (int j = 0; j < keys.length; j++) {
        int slot = spread(keys[j].hashCode()) & mask;
        this.keys[slot] = keys[j].intern();
        this.hashes[slot] = keys[j].hashCode();
        this.values[slot] = values[j];
      }
    } else {
      this.mask = 0;
      this.keys = Arrays.stream(keys).map(String::intern).toArray(String[]::new);
      this.hashes = Arrays.stream(keys).mapToInt(String::hashCode).toArray();
      this.values = values.clone();
    }
  }

  private static int spread(int h) {
    return h ^ (h >>> 16);
  }

  private static boolean separates(String[] keys, int mask) {
    boolean[] used = new boolean[mask + 1];
    for (String k : keys) {
      int slot = spread(k.hashCode()) & mask;
      if (used[slot]) {
        return false;
      }
      used[slot] = true;
    }
    return true;
  }

  /** The value of {@code key}, or -1 when it is not a key. */
  int get(String key) {
    int h = key.hashCode();
    if (perfect) {
      int slot = spread(h) & mask;
      String k = keys[slot];
      return k != null && hashes[slot] == h && (k == key || k.equals(key)) ? values[slot] : -1;
    }
    for (int j = 0; j < keys.length; j++) {
      if (hashes[j] == h && keys[j].equals(key)) {
        return values[j];
      }
    }
    return -1;
  }
}
