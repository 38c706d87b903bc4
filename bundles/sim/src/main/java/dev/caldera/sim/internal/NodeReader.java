package dev.caldera.sim.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.caldera.api.model.ContainerImage;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.Taint;
import dev.caldera.api.resource.Quantity;
import dev.caldera.sim.ScenarioException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads a v1 Node. */
final class NodeReader {

  private NodeReader() {}

  static Node node(Fields f, JsonNode obj, ObjectMeta meta) throws ScenarioException {
    JsonNode spec = obj.path("spec");
    JsonNode status = obj.path("status");
    f.object(spec, "spec");
    f.object(status, "status");
    Boolean unschedulable = f.bool(spec.path("unschedulable"), "spec.unschedulable");
    List<Taint> taints = new ArrayList<>();
    List<JsonNode> items = f.list(spec.path("taints"), "spec.taints");
    for (int i = 0; i < items.size(); i++) {
      String p = "spec.taints[" + i + "]";
      JsonNode t = items.get(i);
      taints.add(
          new Taint(
              f.requiredText(t.path("key"), p + ".key"),
              f.text(t.path("value"), p + ".value"),
              requiredEffect(f, t.path("effect"), p + ".effect")));
    }
    Map<String, Quantity> capacity = f.quantities(status.path("capacity"), "status.capacity");
    Map<String, Quantity> allocatable =
        f.quantities(status.path("allocatable"), "status.allocatable");
    if (allocatable == null) {
      // The kubelet reports allocatable = capacity minus reservations; none are modelled.
      allocatable = capacity;
    }
    List<ContainerImage> images = new ArrayList<>();
    List<JsonNode> imgs = f.list(status.path("images"), "status.images");
    for (int i = 0; i < imgs.size(); i++) {
      String p = "status.images[" + i + "]";
      Long size = f.longValue(imgs.get(i).path("sizeBytes"), p + ".sizeBytes");
      images.add(
          new ContainerImage(
              f.stringList(imgs.get(i).path("names"), p + ".names"), size == null ? 0 : size));
    }
    return new Node(
        meta, unschedulable != null && unschedulable, taints, allocatable, capacity, images);
  }

  /** The effects Kubernetes accepts on a taint. */
  static final List<String> TAINT_EFFECTS = List.of("NoSchedule", "PreferNoSchedule", "NoExecute");

  private static String requiredEffect(Fields f, JsonNode node, String path)
      throws ScenarioException {
    f.requiredText(node, path);
    return f.oneOf(node, path, TAINT_EFFECTS);
  }
}
