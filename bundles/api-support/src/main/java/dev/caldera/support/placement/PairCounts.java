package dev.caldera.support.placement;

import dev.caldera.api.placement.TopologyCounts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The one implementation of {@link TopologyCounts}: counts per topology pair, a map of values per
 * key plus the keys in the order first added. Not thread-safe.
 */
public final class PairCounts implements TopologyCounts {

  private boolean readOnly;

  private final Map<String, Map<String, Long>> counts = new HashMap<>();

  /** The keys that have at least one pair, in the order first added. */
  private final List<String> keys = new ArrayList<>();

  @Override
  public void add(String key, Map<String, String> nodeLabels, long delta) {
    String value = nodeLabels.get(key);
    if (value != null) {
      add(key, value, delta);
    }
  }

  @Override
  public void add(String key, String value, long delta) {
    if (readOnly) {
      throw new IllegalStateException("shared topology counts are read-only; add to a copy()");
    }
    if (delta == 0) {
      return;
    }
    Map<String, Long> byValue = counts.get(key);
    if (byValue == null) {
      byValue = new HashMap<>();
      counts.put(key, byValue);
      keys.add(key);
    }
    long n = byValue.getOrDefault(value, 0L) + delta;
    if (n == 0) {
      byValue.remove(value);
      if (byValue.isEmpty()) {
        counts.remove(key);
        keys.remove(key);
      }
    } else {
      byValue.put(value, n);
    }
  }

  @Override
  public long get(String key, String value) {
    Map<String, Long> byValue = counts.get(key);
    if (byValue == null) {
      return 0;
    }
    Long n = byValue.get(value);
    return n == null ? 0 : n;
  }

  @Override
  public boolean isEmpty() {
    return keys.isEmpty();
  }

  @Override
  public boolean anyPositive(Map<String, String> nodeLabels) {
    for (int i = 0; i < keys.size(); i++) {
      String key = keys.get(i);
      String value = nodeLabels.get(key);
      if (value != null && get(key, value) > 0) {
        return true;
      }
    }
    return false;
  }

  @Override
  public long sum(Map<String, String> nodeLabels) {
    long sum = 0;
    for (int i = 0; i < keys.size(); i++) {
      String key = keys.get(i);
      String value = nodeLabels.get(key);
      if (value != null) {
        sum += get(key, value);
      }
    }
    return sum;
  }

  @Override
  public boolean isReadOnly() {
    return readOnly;
  }

  /**
   * Makes these counts read-only, for sharing (a {@link dev.caldera.api.placement.SessionTopology}
   * implementation hands them out so); a {@link #copy()} is writable again.
   *
   * @return these counts
   */
  public PairCounts readOnly() {
    readOnly = true;
    return this;
  }

  @Override
  public PairCounts copy() {
    PairCounts copy = new PairCounts();
    for (String key : keys) {
      copy.counts.put(key, new HashMap<>(counts.get(key)));
      copy.keys.add(key);
    }
    return copy;
  }
}
