package dev.caldera.kube.internal;

import static dev.caldera.kube.internal.Meta.list;

import dev.caldera.api.model.ContainerImage;
import dev.caldera.api.model.Namespace;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.PodDisruptionBudget;
import dev.caldera.api.model.PriorityClass;
import dev.caldera.api.model.ResourceQuota;
import dev.caldera.api.model.Taint;
import dev.caldera.api.resource.Quantity;
import io.fabric8.kubernetes.api.model.NodeSpec;
import io.fabric8.kubernetes.api.model.NodeStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Converts the core kinds other than Pod: Node, PriorityClass, PDB, ResourceQuota, Namespace. */
final class ObjectConverter {

  private ObjectConverter() {}

  static Node node(io.fabric8.kubernetes.api.model.Node n) {
    NodeSpec spec = n.getSpec() == null ? new NodeSpec() : n.getSpec();
    NodeStatus status = n.getStatus() == null ? new NodeStatus() : n.getStatus();
    List<Taint> taints = new ArrayList<>();
    for (io.fabric8.kubernetes.api.model.Taint t : list(spec.getTaints())) {
      taints.add(new Taint(t.getKey(), t.getValue(), t.getEffect()));
    }
    Map<String, Quantity> capacity = Meta.quantities(status.getCapacity());
    Map<String, Quantity> allocatable = Meta.quantities(status.getAllocatable());
    if (allocatable == null || allocatable.isEmpty()) {
      // A node registered without allocatable (only possible for hand-made nodes) offers its
      // capacity, as the simulator assumes.
      allocatable = capacity;
    }
    List<ContainerImage> images = new ArrayList<>();
    for (io.fabric8.kubernetes.api.model.ContainerImage i : list(status.getImages())) {
      images.add(new ContainerImage(i.getNames(), i.getSizeBytes() == null ? 0 : i.getSizeBytes()));
    }
    return new Node(
        Meta.meta(n.getMetadata()),
        Boolean.TRUE.equals(spec.getUnschedulable()),
        taints,
        allocatable,
        capacity,
        images);
  }

  static PriorityClass priorityClass(
      io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass pc) {
    return new PriorityClass(
        pc.getMetadata().getName(),
        pc.getValue() == null ? 0 : pc.getValue(),
        Boolean.TRUE.equals(pc.getGlobalDefault()));
  }

  static PodDisruptionBudget pdb(io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget b) {
    int allowed = 0;
    Set<String> disrupted = Set.of();
    if (b.getStatus() != null) {
      allowed =
          b.getStatus().getDisruptionsAllowed() == null ? 0 : b.getStatus().getDisruptionsAllowed();
      if (b.getStatus().getDisruptedPods() != null) {
        disrupted = b.getStatus().getDisruptedPods().keySet();
      }
    }
    return new PodDisruptionBudget(
        Meta.meta(b.getMetadata()),
        b.getSpec() == null ? null : Meta.selector(b.getSpec().getSelector()),
        allowed,
        disrupted);
  }

  static ResourceQuota resourceQuota(io.fabric8.kubernetes.api.model.ResourceQuota q) {
    Map<String, Quantity> hard =
        q.getStatus() == null ? null : Meta.quantities(q.getStatus().getHard());
    Map<String, Quantity> used =
        q.getStatus() == null ? null : Meta.quantities(q.getStatus().getUsed());
    // The resourcequota plugin reads status only (volcano-semantics 7.15): a quota the quota
    // controller has not processed yet has no effect.
    return new ResourceQuota(Meta.meta(q.getMetadata()), hard, used);
  }

  static Namespace namespace(io.fabric8.kubernetes.api.model.Namespace ns) {
    return new Namespace(Meta.meta(ns.getMetadata()));
  }
}
