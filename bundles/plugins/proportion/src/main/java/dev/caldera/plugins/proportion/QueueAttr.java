package dev.caldera.plugins.proportion;

import dev.caldera.support.resource.Resource;

/** Proportion's bookkeeping for one queue that has jobs in the session ({@code queueAttr}). */
final class QueueAttr {

  final String name;
  final int weight;
  double share;
  Resource deserved;
  Resource allocated;

  /** Allocated plus Pending requests. */
  Resource request;

  /** Σ of jobs' allocation above their minResources. */
  Resource elastic;

  /** Minimum resources admitted but not yet allocated. */
  Resource inqueue;

  /** {@code spec.capability} (cpu/memory ≤ 0 read as unlimited), or null when unset. */
  Resource capability;

  /** What the queue may hold: the unguaranteed total plus its guarantee, within capability. */
  Resource realCapability;

  Resource guarantee;

  QueueAttr(String name, int weight) {
    this.name = name;
    this.weight = weight;
    this.deserved = Resource.empty();
    this.allocated = Resource.empty();
    this.request = Resource.empty();
    this.elastic = Resource.empty();
    this.inqueue = Resource.empty();
    this.guarantee = Resource.empty();
  }

  /**
   * This queue with another allocation and the share that follows, sharing every other figure. Once
   * a session is open, queue attributes change only through this and {@link #withInqueue} (copy on
   * write), so that a snapshot of the table ({@link ProportionState}) is a copy of references.
   */
  QueueAttr withAllocated(Resource newAllocated) {
    QueueAttr c = sharingCopy();
    c.allocated = newAllocated;
    c.updateShare();
    return c;
  }

  /** This queue with another {@link #inqueue}, sharing every other figure. */
  QueueAttr withInqueue(Resource newInqueue) {
    QueueAttr c = sharingCopy();
    c.inqueue = newInqueue;
    return c;
  }

  private QueueAttr sharingCopy() {
    QueueAttr c = new QueueAttr(name, weight);
    c.share = share;
    c.deserved = deserved;
    c.allocated = allocated;
    c.request = request;
    c.elastic = elastic;
    c.inqueue = inqueue;
    c.capability = capability;
    c.realCapability = realCapability;
    c.guarantee = guarantee;
    return c;
  }

  /** {@code updateShare}: the largest allocated/deserved ratio over deserved's dimensions. */
  void updateShare() {
    double s = 0;
    for (int i : deserved.resourceIndices()) {
      double ratio = Resource.share(allocated.get(i), deserved.get(i));
      if (ratio > s) {
        s = ratio;
      }
    }
    share = s;
  }
}
