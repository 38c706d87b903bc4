package dev.caldera.plugins.capacity;

import dev.caldera.api.info.QueueInfo;

/**
 * Queue order: higher {@code spec.priority} first, then the lower share, ties going to a queue that
 * has a deserved. In a hierarchy leaves come before other queues, and two leaves are compared by
 * their ancestors one level below their lowest common ancestor. Victim queues closest to the
 * evicting queue in the tree go first.
 */
final class QueueOrders {

  private final QueueTable table;

  QueueOrders(QueueTable table) {
    this.table = table;
  }

  int compare(QueueInfo l, QueueInfo r) {
    if (l.priority() != r.priority()) {
      return Integer.compare(r.priority(), l.priority());
    }
    QueueAttr la = table.get(l.name());
    QueueAttr ra = table.get(r.name());
    if (la == null || ra == null) {
      return 0;
    }
    if (!table.hierarchy()) {
      return compareShareWithDeserved(la, ra);
    }
    if (la.isLeaf() != ra.isLeaf()) {
      return la.isLeaf() ? -1 : 1;
    }
    if (!la.isLeaf()) {
      return compareShareWithDeserved(la, ra);
    }
    int level = QueueTable.commonLevel(la, ra);
    QueueAttr lSide = level + 1 < la.ancestors.length ? la.ancestors[level + 1] : la;
    QueueAttr rSide = level + 1 < ra.ancestors.length ? ra.ancestors[level + 1] : ra;
    return compareShareWithDeserved(lSide, rSide);
  }

  /** Evicts first from the queue whose common ancestor with the evictor is deeper; else 0. */
  int compareVictims(QueueInfo l, QueueInfo r, QueueInfo evictor) {
    QueueAttr la = table.get(l.name());
    QueueAttr ra = table.get(r.name());
    QueueAttr pa = table.get(evictor.name());
    if (la == null || ra == null || pa == null) {
      return 0;
    }
    int lLevel = QueueTable.commonLevel(la, pa);
    int rLevel = QueueTable.commonLevel(ra, pa);
    return Integer.compare(rLevel, lLevel);
  }

  /** Lower share first; on equal shares a queue with a deserved before a best-effort one. */
  static int compareShareWithDeserved(QueueAttr l, QueueAttr r) {
    if (l.share == r.share) {
      boolean lHas = !l.deserved.isEmpty();
      boolean rHas = !r.deserved.isEmpty();
      if (lHas == rHas) {
        return 0;
      }
      return lHas ? -1 : 1;
    }
    return l.share < r.share ? -1 : 1;
  }
}
