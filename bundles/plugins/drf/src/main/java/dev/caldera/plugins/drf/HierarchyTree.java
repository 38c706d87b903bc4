package dev.caldera.plugins.drf;

import dev.caldera.api.info.JobInfo;
import dev.caldera.api.resource.ResourceView;
import dev.caldera.support.resource.Resource;

/**
 * Hierarchical DRF ({@code hdrf}): jobs hang under the path of their queue's {@code
 * volcano.sh/hierarchy} annotation; an internal node's allocation is its children's allocations
 * scaled to the smallest unsaturated child share, so that queues compare by weighted share level by
 * level.
 */
final class HierarchyTree {

  private final DominantShare shares;
  private final HierarchyNode root;

  /** Σ job allocations (what {@code demanding} is computed from). */
  final Resource totalAllocated;

  HierarchyTree(DominantShare shares) {
    this(shares, HierarchyNode.internal("root", 1), Resource.empty());
  }

  private HierarchyTree(DominantShare shares, HierarchyNode root, Resource totalAllocated) {
    this.shares = shares;
    this.root = root;
    this.totalAllocated = totalAllocated;
  }

  /** A deep copy, for what-if evaluation. */
  HierarchyTree copy() {
    return new HierarchyTree(shares, root.copy(), totalAllocated.copy());
  }

  /** {@code UpdateHierarchicalShare}: (re)attaches the job's leaf and recomputes the tree. */
  void update(JobInfo job, JobAttr attr, String[] path, String[] weights) {
    attach(job, attr, path, weights);
    recompute();
  }

  /**
   * {@code buildHierarchy}: creates missing path nodes (the first path element is the root; a
   * weight below 1, missing or unparsable, becomes 1) and replaces the job's leaf.
   */
  void attach(JobInfo job, JobAttr attr, String[] path, String[] weights) {
    HierarchyNode node = root;
    for (int i = 1; i < path.length; i++) {
      HierarchyNode child = node.child(path[i]);
      if (child == null) {
        if (node.isLeaf()) {
          return;
        }
        child = HierarchyNode.internal(path[i], weightAt(weights, i));
        node.children.put(path[i], child);
      }
      node = child;
    }
    if (!node.isLeaf()) {
      node.children.put(
          job.uid(), HierarchyNode.leaf(job.uid(), attr, Resource.copyOf(job.totalRequest())));
    }
  }

  private static double weightAt(String[] weights, int i) {
    double w = 0;
    if (i < weights.length) {
      try {
        w = Double.parseDouble(weights[i]);
      } catch (NumberFormatException e) {
        w = 0; // Go's ParseFloat error yields 0, which becomes 1 below
      }
    }
    return w < 1 ? 1 : w;
  }

  /** Recomputes every node from the leaves, with the resources still in demand. */
  void recompute() {
    ResourceView total = shares.total();
    boolean[] demanding = new boolean[Math.max(total.width(), totalAllocated.width())];
    for (int i : shares.dimensions()) {
      demanding[i] = totalAllocated.get(i) < total.get(i);
    }
    recompute(root, demanding);
  }

  private void recompute(HierarchyNode node, boolean[] demanding) {
    if (node.isLeaf()) {
      node.saturated = saturated(node.attr.allocated, node.request, demanding);
      return;
    }
    double mdr = 1;
    for (HierarchyNode child : node.children.values()) {
      recompute(child, demanding);
      if (child.attr.share != 0 && !child.saturated) {
        double s = shares.of(child.attr.allocated);
        if (s < mdr) {
          mdr = s;
        }
      }
    }
    Resource allocated = Resource.empty();
    boolean allSaturated = true;
    for (HierarchyNode child : node.children.values()) {
      if (!child.saturated) {
        allSaturated = false;
      }
      if (child.attr.share != 0) {
        allocated.add(
            child.saturated
                ? child.attr.allocated
                : child.attr.allocated.copy().multiply(mdr / child.attr.share));
      }
    }
    node.attr.allocated = allocated;
    node.attr.updateShare(shares);
    node.saturated = allSaturated;
  }

  /**
   * {@code resourceSaturated}: some allocated dimension has reached the job's request, or is
   * requested while no longer in demand.
   */
  private static boolean saturated(
      ResourceView allocated, ResourceView request, boolean[] demanding) {
    for (int i : allocated.resourceIndices()) {
      double a = allocated.get(i);
      double r = request.get(i);
      if (a != 0 && r != 0 && a >= r) {
        return true;
      }
      boolean inDemand = i < demanding.length && demanding[i];
      if (!inDemand && r != 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code compareQueues}: walks both paths from the root; at the first depth where they differ an
   * unsaturated node comes first, else the smaller {@code share / weight}. Negative puts {@code l}
   * first. A path node that does not exist (a queue without jobs) ends the walk as equal.
   */
  double compare(String[] lPath, String[] rPath) {
    HierarchyNode l = root;
    HierarchyNode r = root;
    int depth = Math.min(lPath.length, rPath.length);
    for (int i = 0; i < depth; i++) {
      if (l == null || r == null) {
        return 0;
      }
      if (!l.saturated && r.saturated) {
        return -1;
      }
      if (l.saturated && !r.saturated) {
        return 1;
      }
      double ls = l.attr.share / l.weight;
      double rs = r.attr.share / r.weight;
      if (ls != rs) {
        return ls - rs;
      }
      if (i < depth - 1) {
        l = l.child(lPath[i + 1]);
        r = r.child(rPath[i + 1]);
      }
    }
    return 0;
  }
}
