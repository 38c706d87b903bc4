package dev.caldera.kube.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.caldera.api.model.NodeGroupAffinity;
import dev.caldera.api.model.PodCondition;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.Queue;
import dev.caldera.api.resource.Quantity;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Volcano's custom resources, {@code scheduling.volcano.sh/v1beta1} Queue (cluster-scoped) and
 * PodGroup (namespaced), read as generic resources: no CRD classes, so any Volcano release's
 * objects load and unknown fields are ignored. Defaults are those of Volcano's admission webhook,
 * as in the simulator.
 */
final class VolcanoConverter {

  static final String GROUP = "scheduling.volcano.sh";
  static final String VERSION = "v1beta1";

  static final ResourceDefinitionContext QUEUES =
      new ResourceDefinitionContext.Builder()
          .withGroup(GROUP)
          .withVersion(VERSION)
          .withKind("Queue")
          .withPlural("queues")
          .withNamespaced(false)
          .build();

  static final ResourceDefinitionContext POD_GROUPS =
      new ResourceDefinitionContext.Builder()
          .withGroup(GROUP)
          .withVersion(VERSION)
          .withKind("PodGroup")
          .withPlural("podgroups")
          .withNamespaced(true)
          .build();

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private VolcanoConverter() {}

  /** Everything but apiVersion, kind and metadata (spec, status) as a tree. */
  private static JsonNode tree(GenericKubernetesResource r) {
    return MAPPER.valueToTree(r.getAdditionalProperties());
  }

  static Queue queue(GenericKubernetesResource r) {
    JsonNode root = tree(r);
    JsonNode spec = root.path("spec");
    JsonNode status = root.path("status");
    JsonNode affinity = spec.path("affinity");
    Integer weight = integer(spec.path("weight"));
    Integer priority = integer(spec.path("priority"));
    JsonNode reclaimable = spec.path("reclaimable");
    return new Queue(
        Meta.meta(r.getMetadata()),
        weight == null ? 1 : weight,
        quantities(spec.path("capability")),
        quantities(spec.path("deserved")),
        quantities(spec.path("guarantee").path("resource")),
        reclaimable.isBoolean() ? reclaimable.booleanValue() : null,
        text(spec.path("parent")),
        priority == null ? 0 : priority,
        nodeGroups(affinity.path("nodeGroupAffinity")),
        nodeGroups(affinity.path("nodeGroupAntiAffinity")),
        text(status.path("state")),
        quantities(status.path("allocated")));
  }

  /**
   * Whether the queue's {@code status.state} is set on the server: Volcano's queue controller sets
   * it to Open when a queue is created; without Volcano nobody does, and Caldera writes it.
   */
  static boolean hasState(GenericKubernetesResource r) {
    String state = text(tree(r).path("status").path("state"));
    return state != null && !state.isEmpty();
  }

  static PodGroup podGroup(GenericKubernetesResource r) {
    JsonNode root = tree(r);
    JsonNode spec = root.path("spec");
    JsonNode status = root.path("status");
    Map<String, Integer> minTaskMember = new LinkedHashMap<>();
    JsonNode mtm = spec.path("minTaskMember");
    if (mtm.isObject()) {
      mtm.properties()
          .forEach(
              e -> {
                Integer n = integer(e.getValue());
                minTaskMember.put(e.getKey(), n == null ? 0 : n);
              });
    }
    String queue = text(spec.path("queue"));
    Integer minMember = integer(spec.path("minMember"));
    return new PodGroup(
        Meta.meta(r.getMetadata()),
        queue == null || queue.isEmpty() ? "default" : queue,
        minMember == null ? 0 : minMember,
        minTaskMember,
        quantities(spec.path("minResources")),
        text(spec.path("priorityClassName")),
        text(status.path("phase")),
        conditions(status.path("conditions")));
  }

  /** {@code status.running}, {@code succeeded} and {@code failed} as written on the server. */
  static int[] counts(GenericKubernetesResource r) {
    JsonNode status = tree(r).path("status");
    return new int[] {
      status.path("running").asInt(0),
      status.path("succeeded").asInt(0),
      status.path("failed").asInt(0)
    };
  }

  private static List<PodCondition> conditions(JsonNode node) {
    List<PodCondition> out = new ArrayList<>();
    if (!node.isArray()) {
      return out;
    }
    for (JsonNode c : node) {
      String type = text(c.path("type"));
      if (type == null) {
        continue;
      }
      out.add(
          new PodCondition(
              type,
              text(c.path("status")),
              text(c.path("reason")),
              text(c.path("message")),
              Meta.time(text(c.path("lastTransitionTime")))));
    }
    return out;
  }

  private static NodeGroupAffinity nodeGroups(JsonNode node) {
    if (!node.isObject()) {
      return null;
    }
    return new NodeGroupAffinity(
        strings(node.path("requiredDuringSchedulingIgnoredDuringExecution")),
        strings(node.path("preferredDuringSchedulingIgnoredDuringExecution")));
  }

  private static List<String> strings(JsonNode node) {
    List<String> out = new ArrayList<>();
    if (node.isArray()) {
      node.forEach(n -> out.add(n.asText()));
    }
    return out;
  }

  /** A resource list; null when absent. Numbers written unquoted ({@code cpu: 2}) are read too. */
  private static Map<String, Quantity> quantities(JsonNode node) {
    if (!node.isObject()) {
      return null;
    }
    Map<String, Quantity> out = new LinkedHashMap<>();
    node.properties()
        .forEach(
            e -> {
              Quantity q = Meta.quantity(e.getValue().asText());
              if (q != null) {
                out.put(e.getKey(), q);
              }
            });
    return out;
  }

  private static String text(JsonNode node) {
    return node.isValueNode() && !node.isNull() ? node.asText() : null;
  }

  private static Integer integer(JsonNode node) {
    if (node.isIntegralNumber()) {
      return node.intValue();
    }
    if (node.isTextual()) {
      try {
        return Integer.parseInt(node.asText().trim());
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return null;
  }
}
