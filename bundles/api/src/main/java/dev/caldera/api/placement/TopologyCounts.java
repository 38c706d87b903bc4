package dev.caldera.api.placement;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts per topology pair (node label key, value), as upstream's {@code
 * topologyToMatchedTermCount} and the inter-pod affinity score's per-pair weights: a pair whose
 * count returns to zero is removed. Looked up by key and value separately, so a filter needs no
 * pair object. Not thread-safe; {@link #copy()} for a simulation of its own.
 *
 * <p>Counts handed out by {@link SessionTopology} are shared by every plugin and read-only: {@link
 * #add} on them throws {@link IllegalStateException}; a {@link #copy()} is always writable.
 */
public final class TopologyCounts {

  private boolean readOnly;

  private final Map<String, Map<String, Long>> counts = new HashMap<>();

  /** The keys that have at least one pair, in the order first added. */
  private final List<String> keys = new ArrayList<>();

  /** Adds {@code delta} to the pair of {@code key} on a node with these labels, if it has one. */
  public void add(String key, Map<String, String> nodeLabels, long delta) {
    String value = nodeLabels.get(key);
    if (value != null) {
      add(key, value, delta);
    }
  }

  /** Adds {@code delta} to the pair ({@code key}, {@code value}). */
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

  /** The count of the pair, 0 when absent. */
  public long get(String key, String value) {
    Map<String, Long> byValue = counts.get(key);
    if (byValue == null) {
      return 0;
    }
    Long n = byValue.get(value);
    return n == null ? 0 : n;
  }

  /** Whether no pair has a count. */
  public boolean isEmpty() {
    return keys.isEmpty();
  }

  /** Whether some pair of a node with these labels has a positive count. */
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

  /** The sum of the counts of the pairs of a node with these labels. */
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

  /** Whether {@link #add} is refused (counts shared through {@link SessionTopology}). */
  public boolean isReadOnly() {
    return readOnly;
  }

  /**
   * Makes these counts read-only, for sharing (a {@link SessionTopology} implementation hands them
   * out so); a {@link #copy()} is writable again.
   *
   * @return these counts
   * @since 1.2
   */
  public TopologyCounts readOnly() {
    readOnly = true;
    return this;
  }

  /** An independent, writable copy. */
  public TopologyCounts copy() {
    TopologyCounts copy = new TopologyCounts();
    for (String key : keys) {
      copy.counts.put(key, new HashMap<>(counts.get(key)));
      copy.keys.add(key);
    }
    return copy;
  }
}
