package dev.caldera.plugins.capacity;

import java.util.List;
import java.util.Map;

/**
 * Capacity's queue attributes for one session, by name, with the tree in hierarchical mode.
 *
 * @param root the root of the tree, or null in flat mode
 * @param reports warnings about the tree found while building it
 */
record QueueTable(
    boolean hierarchy,
    Map<String, QueueAttr> byName,
    List<QueueAttr> all,
    QueueAttr root,
    List<QueueReports.Report> reports) {

  static final String ROOT = "root";

  QueueTable {
    for (int i = 0; i < all.size(); i++) {
      all.get(i).index = i;
    }
  }

  /** The attribute of a queue, or null (flat mode: a queue without jobs). */
  QueueAttr get(String name) {
    return byName.get(name);
  }

  /**
   * {@code getQueueLevel}: the deepest index at which the ancestor lists of both queues agree (0
   * when only the root is shared).
   */
  static int commonLevel(QueueAttr l, QueueAttr r) {
    int level = 0;
    int n = Math.min(l.ancestors.length, r.ancestors.length);
    for (int i = 0; i < n; i++) {
      if (l.ancestors[i] != r.ancestors[i]) {
        return level;
      }
      level = i;
    }
    return level;
  }
}
