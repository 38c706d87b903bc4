package dev.caldera.sim.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.caldera.api.model.NodeGroupAffinity;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.Queue;
import dev.caldera.sim.ScenarioException;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reads Volcano's Queue and PodGroup ({@code scheduling.volcano.sh/v1beta1}). */
final class VolcanoReader {

  private VolcanoReader() {}

  static Queue queue(Fields f, JsonNode obj, ObjectMeta meta) throws ScenarioException {
    JsonNode spec = obj.path("spec");
    JsonNode status = obj.path("status");
    f.object(spec, "spec");
    f.object(status, "status");
    Integer weight = f.integer(spec.path("weight"), "spec.weight");
    Integer priority = f.integer(spec.path("priority"), "spec.priority");
    JsonNode guarantee = spec.path("guarantee");
    f.object(guarantee, "spec.guarantee");
    JsonNode affinity = spec.path("affinity");
    f.object(affinity, "spec.affinity");
    return new Queue(
        meta,
        // Volcano's admission webhook defaults the weight to 1.
        weight == null ? 1 : weight,
        f.quantities(spec.path("capability"), "spec.capability"),
        f.quantities(spec.path("deserved"), "spec.deserved"),
        f.quantities(guarantee.path("resource"), "spec.guarantee.resource"),
        f.bool(spec.path("reclaimable"), "spec.reclaimable"),
        f.text(spec.path("parent"), "spec.parent"),
        priority == null ? 0 : priority,
        nodeGroups(f, affinity.path("nodeGroupAffinity"), "spec.affinity.nodeGroupAffinity"),
        nodeGroups(
            f, affinity.path("nodeGroupAntiAffinity"), "spec.affinity.nodeGroupAntiAffinity"),
        f.text(status.path("state"), "status.state"),
        f.quantities(status.path("allocated"), "status.allocated"));
  }

  private static NodeGroupAffinity nodeGroups(Fields f, JsonNode node, String path)
      throws ScenarioException {
    if (f.object(node, path) == null) {
      return null;
    }
    return new NodeGroupAffinity(
        f.stringList(
            node.path("requiredDuringSchedulingIgnoredDuringExecution"),
            path + ".requiredDuringSchedulingIgnoredDuringExecution"),
        f.stringList(
            node.path("preferredDuringSchedulingIgnoredDuringExecution"),
            path + ".preferredDuringSchedulingIgnoredDuringExecution"));
  }

  static PodGroup podGroup(Fields f, JsonNode obj, ObjectMeta meta) throws ScenarioException {
    JsonNode spec = obj.path("spec");
    JsonNode status = obj.path("status");
    f.object(spec, "spec");
    f.object(status, "status");
    String queue = f.text(spec.path("queue"), "spec.queue");
    Integer minMember = f.integer(spec.path("minMember"), "spec.minMember");
    Map<String, Integer> minTaskMember = new LinkedHashMap<>();
    JsonNode mtm = f.object(spec.path("minTaskMember"), "spec.minTaskMember");
    if (mtm != null) {
      for (Map.Entry<String, JsonNode> e : mtm.properties()) {
        Integer n = f.integer(e.getValue(), "spec.minTaskMember." + e.getKey());
        minTaskMember.put(e.getKey(), n == null ? 0 : n);
      }
    }
    return new PodGroup(
        meta,
        // Volcano's admission webhook puts a pod group without a queue into "default".
        queue == null || queue.isEmpty() ? "default" : queue,
        minMember == null ? 0 : minMember,
        minTaskMember,
        f.quantities(spec.path("minResources"), "spec.minResources"),
        f.text(spec.path("priorityClassName"), "spec.priorityClassName"),
        f.text(status.path("phase"), "status.phase"),
        MetaReader.conditions(f, status.path("conditions"), "status.conditions"));
  }
}
