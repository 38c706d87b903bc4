package dev.caldera.framework.internal.session;

import dev.caldera.api.model.Pod;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Finds the pods of one session's snapshot among the previous session's, by identity, for pods
 * asked in snapshot order.
 *
 * <p>A cluster cache lists its pods in the order it first saw them, and hands a session the same
 * object until a pod changes. From one snapshot to the next most pods are the same object at the
 * same place; a changed pod is a new object with the same key at the same place; new pods come at
 * the end; pods gone leave gaps. A walk over both lists answers all of these with one comparison
 * per pod. Anything else (another order, a pod that became visible in the middle) falls back to an
 * identity index of the previous list, built once, so an answer is always exact: a position is
 * returned only for the very same object.
 */
final class PodAlignment {

  /** How far ahead the walk looks for a pod before it builds the index: pods deleted in a row. */
  private static final int LOOKAHEAD = 16;

  private final Pod[] previous;
  private int cursor;
  private Map<Pod, Integer> index;

  /**
   * @param previous the previous session's pods, in its snapshot's order
   */
  PodAlignment(Pod[] previous) {
    this.previous = previous;
  }

  /** The position of {@code pod} in the previous list, or -1 when it was not there. */
  int find(Pod pod) {
    Pod[] prev = previous;
    int c = cursor;
    if (index == null) {
      if (c >= prev.length) {
        return -1;
      }
      if (prev[c] == pod) {
        cursor = c + 1;
        return c;
      }
      int end = Math.min(prev.length, c + 1 + LOOKAHEAD);
      for (int k = c + 1; k < end; k++) {
        if (prev[k] == pod) {
          cursor = k + 1;
          return k;
        }
      }
      // Keys are made only here, for the few pods that are not where they were.
      if (prev[c].key().equals(pod.key())) {
        cursor = c + 1;
        return -1;
      }
      index = new IdentityHashMap<>(prev.length * 2);
      for (int i = 0; i < prev.length; i++) {
        index.put(prev[i], i);
      }
    }
    Integer at = index.get(pod);
    return at == null ? -1 : at;
  }
}
