package dev.caldera.api.placement;

import java.util.Map;
import org.osgi.annotation.versioning.ProviderType;

/**
 * Counts per topology pair (node label key, value), as upstream's {@code
 * topologyToMatchedTermCount} and the inter-pod affinity score's per-pair weights: a pair whose
 * count returns to zero is removed. Looked up by key and value separately, so a filter needs no
 * pair object. Not thread-safe; {@link #copy()} for a simulation of its own.
 *
 * <p>Counts handed out by {@link SessionTopology} are shared by every plugin and read-only: {@link
 * #add} on them throws {@link IllegalStateException}; a {@link #copy()} is always writable. The
 * implementation is the api-support bundle's {@code PairCounts}.
 */
@ProviderType
public interface TopologyCounts {

  /** Adds {@code delta} to the pair of {@code key} on a node with these labels, if it has one. */
  void add(String key, Map<String, String> nodeLabels, long delta);

  /**
   * Adds {@code delta} to the pair ({@code key}, {@code value}).
   *
   * @throws IllegalStateException when these counts are {@link #isReadOnly() read-only}
   */
  void add(String key, String value, long delta);

  /** The count of the pair, 0 when absent. */
  long get(String key, String value);

  /** Whether no pair has a count. */
  boolean isEmpty();

  /** Whether some pair of a node with these labels has a positive count. */
  boolean anyPositive(Map<String, String> nodeLabels);

  /** The sum of the counts of the pairs of a node with these labels. */
  long sum(Map<String, String> nodeLabels);

  /** Whether {@link #add} is refused (counts shared through {@link SessionTopology}). */
  boolean isReadOnly();

  /** An independent, writable copy. */
  TopologyCounts copy();
}
