package dev.caldera.plugins.drf;

import dev.caldera.api.resource.ResourceView;
import dev.caldera.support.resource.Resource;
import java.util.Map;
import java.util.TreeMap;

/**
 * A node of the hierarchical-DRF tree: a path element of a queue's {@code volcano.sh/hierarchy}, or
 * a leaf for one job. A leaf shares its {@link JobAttr} with the plugin's job table, so the job's
 * share updates reach the tree.
 */
final class HierarchyNode {

  final String name;
  final double weight;
  JobAttr attr;
  final ResourceView request;
  boolean saturated;

  /** Children by name; null for a leaf. */
  final Map<String, HierarchyNode> children;

  private HierarchyNode(
      String name,
      double weight,
      JobAttr attr,
      ResourceView request,
      Map<String, HierarchyNode> kids) {
    this.name = name;
    this.weight = weight;
    this.attr = attr;
    this.request = request;
    this.children = kids;
  }

  static HierarchyNode internal(String name, double weight) {
    return new HierarchyNode(
        name, weight, new JobAttr(Resource.empty()), Resource.empty(), new TreeMap<>());
  }

  static HierarchyNode leaf(String jobUid, JobAttr attr, ResourceView request) {
    return new HierarchyNode(jobUid, 1, attr, request, null);
  }

  boolean isLeaf() {
    return children == null;
  }

  /** The child called {@code name}, or null. */
  HierarchyNode child(String name) {
    return children == null ? null : children.get(name);
  }

  /** A deep copy whose attributes are detached from the job table. */
  HierarchyNode copy() {
    HierarchyNode c =
        new HierarchyNode(
            name,
            weight,
            attr.copy(),
            Resource.copyOf(request),
            children == null ? null : new TreeMap<>());
    c.saturated = saturated;
    if (children != null) {
      for (Map.Entry<String, HierarchyNode> e : children.entrySet()) {
        c.children.put(e.getKey(), e.getValue().copy());
      }
    }
    return c;
  }
}
