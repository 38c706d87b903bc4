package dev.caldera.plugins.capacity;

import dev.caldera.api.info.QueueInfo;
import dev.caldera.support.resource.Resource;
import java.util.ArrayList;
import java.util.List;

/**
 * Capacity's bookkeeping for one queue ({@code queueAttr}). In hierarchical mode there is one per
 * queue of the session, plus the implicit queues of the tree (an absent root, a missing level of a
 * {@code volcano.sh/hierarchy} path), which have no {@link QueueInfo}.
 */
final class QueueAttr {

  private static final QueueAttr[] NONE = new QueueAttr[0];

  final String name;

  /** The session's queue, or null for an implicit queue. */
  final QueueInfo queue;

  /** Position in {@link QueueTable#all()}, for per-queue arrays. */
  int index;

  /** The weight that splits the parent's deserved among siblings without {@code deserved}. */
  int weight = 1;

  /** Whether {@code spec.deserved} was given (hierarchy: otherwise it is derived by weight). */
  boolean specDeserved;

  double share;
  Resource deserved = Resource.empty();
  Resource allocated = Resource.empty();

  /** Allocated plus Pending requests. */
  Resource request = Resource.empty();

  /** Σ of jobs' allocation above their minResources. */
  Resource elastic = Resource.empty();

  /** Minimum resources admitted but not yet allocated. */
  Resource inqueue = Resource.empty();

  /** {@code spec.capability}; flat mode: null when unset. */
  Resource capability;

  /** What the queue may hold: its capability within what others' guarantees leave. */
  Resource realCapability;

  /** The guarantee; in hierarchical mode at least the sum of the children's. */
  Resource guarantee = Resource.empty();

  /** {@code spec.guarantee.resource} as given, for the consistency warnings. */
  Resource specGuarantee = Resource.empty();

  QueueAttr parent;
  final List<QueueAttr> children = new ArrayList<>();

  /** Ancestors from the root down to the parent. */
  QueueAttr[] ancestors = NONE;

  /**
   * Why the queue takes no jobs (hierarchical mode: not a leaf, in a cycle...), as an event reason,
   * or null.
   */
  String refusalReason;

  String refusalMessage;

  /** Whether the queue is outside the tree (a cycle, a missing parent). */
  boolean excluded;

  QueueAttr(String name, QueueInfo queue) {
    this.name = name;
    this.queue = queue;
  }

  boolean isLeaf() {
    return children.isEmpty();
  }

  /**
   * {@code updateQueueAttrShare}: 1 for a best-effort queue (empty deserved), else the largest
   * allocated/deserved ratio over deserved's dimensions.
   */
  void updateShare() {
    if (deserved.isEmpty()) {
      share = 1;
      return;
    }
    double s = 0;
    for (int i : deserved.resourceIndices()) {
      s = Math.max(s, Resource.share(allocated.get(i), deserved.get(i)));
    }
    share = s;
  }

  /** The ancestor {@code depth} levels up (1 is the parent), or null. */
  QueueAttr ancestorAtDepth(int depth) {
    if (depth <= 0 || ancestors.length < depth) {
      return null;
    }
    return ancestors[ancestors.length - depth];
  }

  @Override
  public String toString() {
    return "QueueAttr[" + name + "]";
  }
}
