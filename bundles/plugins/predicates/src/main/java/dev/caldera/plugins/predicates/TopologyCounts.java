package dev.caldera.plugins.predicates;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts per topology pair (key, value), as upstream's {@code topologyToMatchedTermCount}: a pair
 * whose count returns to zero is removed. Looked up by key and value separately so that a filter
 * needs no pair object.
 */
final class TopologyCounts {

  private final Map<String, Map<String, Integer>> counts = new HashMap<>();

  /** The keys that have at least one pair, for allocation-free iteration. */
  private final List<String> keys = new ArrayList<>();

  /** Adds {@code delta} to the pair of {@code key} on a node with these labels, if it has it. */
  void add(String key, Map<String, String> nodeLabels, int delta) {
    String value = nodeLabels.get(key);
    if (value != null) {
      add(key, value, delta);
    }
  }

  void add(String key, String value, int delta) {
    Map<String, Integer> byValue = counts.get(key);
    if (byValue == null) {
      byValue = new HashMap<>();
      counts.put(key, byValue);
      keys.add(key);
    }
    int n = byValue.getOrDefault(value, 0) + delta;
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
  int get(String key, String value) {
    Map<String, Integer> byValue = counts.get(key);
    if (byValue == null) {
      return 0;
    }
    Integer n = byValue.get(value);
    return n == null ? 0 : n;
  }

  boolean isEmpty() {
    return keys.isEmpty();
  }

  /** Whether some pair of a node with these labels has a positive count. */
  boolean anyPositive(Map<String, String> nodeLabels) {
    for (int i = 0; i < keys.size(); i++) {
      String key = keys.get(i);
      String value = nodeLabels.get(key);
      if (value != null && get(key, value) > 0) {
        return true;
      }
    }
    return false;
  }

  TopologyCounts copy() {
    TopologyCounts copy = new TopologyCounts();
    for (String key : keys) {
      copy.counts.put(key, new HashMap<>(counts.get(key)));
      copy.keys.add(key);
    }
    return copy;
  }
}
