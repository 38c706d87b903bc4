package dev.caldera.plugins.capacity;

import dev.caldera.api.resource.Dimension;
import dev.caldera.api.resource.ResourceNames;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.support.resource.Resource;
import java.util.ArrayList;
import java.util.List;

/**
 * Hierarchical mode's limits ({@code checkHierarchicalQueue}), computed from the root down:
 * inherited capability, deserved (given, or the parent's split by weight), guarantee (at least the
 * children's sum), real capability, and the consistency warnings.
 */
final class TreeLimits {

  static final String REASON_INCONSISTENT = "InconsistentQueueHierarchy";

  private final List<QueueReports.Report> reports;

  private TreeLimits(List<QueueReports.Report> reports) {
    this.reports = reports;
  }

  /** Computes every queue's limits and share; warnings go to {@code reports}. */
  static void apply(QueueTable table, ResourceView total, List<QueueReports.Report> reports) {
    QueueAttr root = table.root();
    sumGuarantees(root);
    // The root is the cluster (the capacity design's hierarchical step 4): what it does not set
    // is the cluster's total, so a guarantee anywhere is held back from every other subtree.
    if (root.queue == null || root.capability.isEmpty()) {
      root.capability = Resource.copyOf(total);
    } else {
      inheritCapability(root.capability, total);
    }
    root.realCapability = root.capability.copy();
    if (!root.specDeserved) {
      root.deserved = withoutPods(total).minDimension(root.capability, Dimension.INFINITY);
    }
    new TreeLimits(reports).check(root);
    for (QueueAttr attr : table.all()) {
      if (attr.realCapability == null) {
        attr.realCapability = attr.capability.copy();
      }
      attr.updateShare();
    }
  }

  /** Raises each queue's guarantee to the sum of its children's, bottom-up. */
  private static Resource sumGuarantees(QueueAttr attr) {
    if (attr.isLeaf()) {
      return attr.guarantee;
    }
    Resource sum = Resource.empty();
    for (QueueAttr child : attr.children) {
      sum.add(sumGuarantees(child));
    }
    attr.guarantee = Resource.max(attr.specGuarantee, sum);
    return attr.guarantee;
  }

  private static Resource withoutPods(ResourceView r) {
    return Resource.copyOf(r).remove(ResourceNames.PODS_INDEX);
  }

  private void check(QueueAttr parent) {
    Resource explicit = Resource.empty();
    List<QueueAttr> derived = new ArrayList<>();
    for (QueueAttr child : parent.children) {
      inheritCapability(child.capability, parent.capability);
      if (child.specDeserved) {
        child.deserved = Resource.max(child.deserved, child.guarantee);
        explicit.add(child.deserved);
      } else {
        derived.add(child);
      }
      List<String> above = child.capability.greaterPartly(parent.capability, Dimension.INFINITY);
      if (!above.isEmpty()) {
        warn(
            child,
            "capability",
            "the capability of queue "
                + child.name
                + " ("
                + Quantities.format(child.capability)
                + ") is above its parent "
                + parent.name
                + "'s ("
                + Quantities.format(parent.capability)
                + ") on "
                + String.join(", ", above)
                + "; the parent's limit applies");
      }
    }
    splitByWeight(parent, explicit, derived);

    Resource totalDeserved = Resource.empty();
    Resource totalGuarantee = Resource.empty();
    for (QueueAttr child : parent.children) {
      totalDeserved.add(child.deserved);
      totalGuarantee.add(child.guarantee);
    }
    if (parent.ancestors.length == 0) {
      parent.guarantee = totalGuarantee;
    } else {
      if (parent.deserved.lessPartly(totalDeserved, Dimension.ZERO)) {
        warn(
            parent,
            "deserved",
            "the deserved of the children of queue "
                + parent.name
                + " sums to "
                + Quantities.format(totalDeserved)
                + ", above the queue's own ("
                + Quantities.format(parent.deserved)
                + ")");
      }
      if (!parent.specGuarantee.isEmpty()
          && parent.specGuarantee.lessPartly(totalGuarantee, Dimension.ZERO)) {
        warn(
            parent,
            "guarantee",
            "the guarantees of the children of queue "
                + parent.name
                + " sum to "
                + Quantities.format(totalGuarantee)
                + ", above the queue's own ("
                + Quantities.format(parent.specGuarantee)
                + "); the sum is used");
      }
    }
    Resource unguaranteed = Resource.exceededPart(parent.realCapability, totalGuarantee);
    for (QueueAttr child : parent.children) {
      child.realCapability =
          unguaranteed
              .copy()
              .add(child.guarantee)
              .minDimension(child.capability, Dimension.INFINITY);
    }
    for (QueueAttr child : parent.children) {
      check(child);
    }
  }

  /**
   * cpu or memory ≤ 0 in the child's capability is the parent's; a scalar the child does not name
   * is the parent's.
   */
  static void inheritCapability(Resource child, ResourceView parent) {
    if (child.milliCpu() <= 0) {
      child.set(ResourceNames.CPU_INDEX, parent.milliCpu());
    }
    if (child.memory() <= 0) {
      child.set(ResourceNames.MEMORY_INDEX, parent.memory());
    }
    for (int i : parent.scalarIndices()) {
      if (!child.has(i)) {
        child.set(i, parent.get(i));
      }
    }
  }

  /**
   * Children without {@code spec.deserved} share what their parent deserves beyond its other
   * children's, in proportion to their weights, each within its capability and at least its
   * guarantee. {@code pods} is never split.
   */
  private static void splitByWeight(
      QueueAttr parent, ResourceView explicit, List<QueueAttr> derived) {
    if (derived.isEmpty()) {
      return;
    }
    Resource rest =
        Resource.of(
            Math.max(0, parent.deserved.milliCpu() - explicit.milliCpu()),
            Math.max(0, parent.deserved.memory() - explicit.memory()));
    for (int i : parent.deserved.scalarIndices()) {
      if (i != ResourceNames.PODS_INDEX) {
        rest.set(i, Math.max(0, parent.deserved.get(i) - explicit.get(i)));
      }
    }
    long totalWeight = 0;
    for (QueueAttr child : derived) {
      totalWeight += Math.max(0, child.weight);
    }
    for (QueueAttr child : derived) {
      Resource share = rest.copy();
      long weight = Math.max(0, child.weight);
      for (int i = 0; i < share.width(); i++) {
        if (share.has(i)) {
          share.set(i, totalWeight == 0 ? 0 : share.get(i) * weight / totalWeight);
        }
      }
      share.minDimension(child.capability, Dimension.INFINITY);
      child.deserved = Resource.max(share, child.guarantee);
    }
  }

  private void warn(QueueAttr attr, String kind, String message) {
    if (attr.queue != null) {
      reports.add(new QueueReports.Report(attr.name, kind, REASON_INCONSISTENT, message));
    }
  }
}
