package dev.caldera.framework.internal.session;

import java.util.Arrays;

/**
 * The session's log of node accounting changes: the index of the node each time a task is added to
 * or removed from it. A reader that remembers the log's length can later visit exactly the nodes
 * changed since, which is how allocate keeps per-node answers up to date without looking at every
 * node again. Written on the scheduling thread only.
 */
final class NodeChangeLog {

  private int[] entries = new int[1024];
  private int size;

  void changed(int nodeIndex) {
    if (size == entries.length) {
      entries = Arrays.copyOf(entries, size * 2);
    }
    entries[size++] = nodeIndex;
  }

  int size() {
    return size;
  }

  int at(int position) {
    if (position < 0 || position >= size) {
      throw new IndexOutOfBoundsException(position);
    }
    return entries[position];
  }
}
