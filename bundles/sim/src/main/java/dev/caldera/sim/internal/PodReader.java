package dev.caldera.sim.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.caldera.api.model.Container;
import dev.caldera.api.model.ContainerPort;
import dev.caldera.api.model.NodeAffinity;
import dev.caldera.api.model.NodeSelectorRequirement;
import dev.caldera.api.model.NodeSelectorTerm;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodAffinity;
import dev.caldera.api.model.PodAffinityTerm;
import dev.caldera.api.model.PreferredSchedulingTerm;
import dev.caldera.api.model.Toleration;
import dev.caldera.api.model.TopologySpreadConstraint;
import dev.caldera.api.model.WeightedPodAffinityTerm;
import dev.caldera.api.resource.Quantity;
import dev.caldera.sim.ScenarioException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads a v1 Pod: the spec fields a scheduler reads, and the status. */
final class PodReader {

  private static final String REQUIRED = "requiredDuringSchedulingIgnoredDuringExecution";
  private static final String PREFERRED = "preferredDuringSchedulingIgnoredDuringExecution";

  private PodReader() {}

  static Pod pod(Fields f, JsonNode obj, ObjectMeta meta) throws ScenarioException {
    JsonNode spec = obj.path("spec");
    JsonNode status = obj.path("status");
    f.object(spec, "spec");
    f.object(status, "status");
    JsonNode affinity = spec.path("affinity");
    f.object(affinity, "spec.affinity");
    List<String> gates = new ArrayList<>();
    List<JsonNode> gateItems = f.list(spec.path("schedulingGates"), "spec.schedulingGates");
    for (int i = 0; i < gateItems.size(); i++) {
      gates.add(
          f.requiredText(gateItems.get(i).path("name"), "spec.schedulingGates[" + i + "].name"));
    }
    Map<String, Quantity> overhead = f.quantities(spec.path("overhead"), "spec.overhead");
    return new Pod(
        meta,
        f.text(spec.path("schedulerName"), "spec.schedulerName"),
        f.text(spec.path("nodeName"), "spec.nodeName"),
        f.integer(spec.path("priority"), "spec.priority"),
        f.text(spec.path("priorityClassName"), "spec.priorityClassName"),
        f.text(spec.path("preemptionPolicy"), "spec.preemptionPolicy"),
        f.stringMap(spec.path("nodeSelector"), "spec.nodeSelector"),
        nodeAffinity(f, affinity.path("nodeAffinity"), "spec.affinity.nodeAffinity"),
        podAffinity(f, affinity.path("podAffinity"), "spec.affinity.podAffinity"),
        podAffinity(f, affinity.path("podAntiAffinity"), "spec.affinity.podAntiAffinity"),
        tolerations(f, spec.path("tolerations")),
        containers(f, spec.path("containers"), "spec.containers"),
        containers(f, spec.path("initContainers"), "spec.initContainers"),
        spreadConstraints(f, spec.path("topologySpreadConstraints")),
        overhead,
        gates,
        f.text(status.path("phase"), "status.phase"),
        f.text(status.path("nominatedNodeName"), "status.nominatedNodeName"),
        MetaReader.conditions(f, status.path("conditions"), "status.conditions"),
        StorageReader.podVolumes(f, spec.path("volumes"), meta.name()));
  }

  private static List<Container> containers(Fields f, JsonNode node, String path)
      throws ScenarioException {
    List<Container> out = new ArrayList<>();
    List<JsonNode> items = f.list(node, path);
    for (int i = 0; i < items.size(); i++) {
      String p = path + "[" + i + "]";
      JsonNode c = items.get(i);
      JsonNode resources = c.path("resources");
      f.object(resources, p + ".resources");
      Map<String, Quantity> requests =
          f.quantities(resources.path("requests"), p + ".resources.requests");
      Map<String, Quantity> limits =
          f.quantities(resources.path("limits"), p + ".resources.limits");
      // API-server defaulting: a resource with a limit and no request requests its limit.
      Map<String, Quantity> effective = new LinkedHashMap<>();
      if (requests != null) {
        effective.putAll(requests);
      }
      if (limits != null) {
        limits.forEach(effective::putIfAbsent);
      }
      List<ContainerPort> ports = new ArrayList<>();
      List<JsonNode> portItems = f.list(c.path("ports"), p + ".ports");
      for (int j = 0; j < portItems.size(); j++) {
        String pp = p + ".ports[" + j + "]";
        JsonNode port = portItems.get(j);
        Integer containerPort = f.integer(port.path("containerPort"), pp + ".containerPort");
        Integer hostPort = f.integer(port.path("hostPort"), pp + ".hostPort");
        ports.add(
            new ContainerPort(
                containerPort == null ? 0 : containerPort,
                hostPort == null ? 0 : hostPort,
                f.text(port.path("protocol"), pp + ".protocol"),
                f.text(port.path("hostIP"), pp + ".hostIP")));
      }
      out.add(
          new Container(
              f.text(c.path("name"), p + ".name"),
              f.text(c.path("image"), p + ".image"),
              effective,
              ports,
              f.text(c.path("restartPolicy"), p + ".restartPolicy")));
    }
    return out;
  }

  private static List<Toleration> tolerations(Fields f, JsonNode node) throws ScenarioException {
    List<Toleration> out = new ArrayList<>();
    List<JsonNode> items = f.list(node, "spec.tolerations");
    for (int i = 0; i < items.size(); i++) {
      String p = "spec.tolerations[" + i + "]";
      JsonNode t = items.get(i);
      out.add(
          new Toleration(
              f.text(t.path("key"), p + ".key"),
              f.text(t.path("operator"), p + ".operator"),
              f.text(t.path("value"), p + ".value"),
              f.oneOf(t.path("effect"), p + ".effect", TOLERATION_EFFECTS),
              f.longValue(t.path("tolerationSeconds"), p + ".tolerationSeconds")));
    }
    return out;
  }

  private static NodeAffinity nodeAffinity(Fields f, JsonNode node, String path)
      throws ScenarioException {
    if (f.object(node, path) == null) {
      return new NodeAffinity(null, null);
    }
    List<NodeSelectorTerm> required = null;
    JsonNode req = f.object(node.path(REQUIRED), path + "." + REQUIRED);
    if (req != null) {
      required = new ArrayList<>();
      String p = path + "." + REQUIRED + ".nodeSelectorTerms";
      List<JsonNode> terms = f.list(req.path("nodeSelectorTerms"), p);
      for (int i = 0; i < terms.size(); i++) {
        required.add(nodeSelectorTerm(f, terms.get(i), p + "[" + i + "]"));
      }
    }
    List<PreferredSchedulingTerm> preferred = new ArrayList<>();
    List<JsonNode> prefs = f.list(node.path(PREFERRED), path + "." + PREFERRED);
    for (int i = 0; i < prefs.size(); i++) {
      String p = path + "." + PREFERRED + "[" + i + "]";
      Integer weight = f.integer(prefs.get(i).path("weight"), p + ".weight");
      preferred.add(
          new PreferredSchedulingTerm(
              weight == null ? 0 : weight,
              nodeSelectorTerm(f, prefs.get(i).path("preference"), p + ".preference")));
    }
    return new NodeAffinity(required, preferred);
  }

  static NodeSelectorTerm nodeSelectorTerm(Fields f, JsonNode node, String path)
      throws ScenarioException {
    f.object(node, path);
    return new NodeSelectorTerm(
        nodeRequirements(f, node.path("matchExpressions"), path + ".matchExpressions"),
        nodeRequirements(f, node.path("matchFields"), path + ".matchFields"));
  }

  private static List<NodeSelectorRequirement> nodeRequirements(
      Fields f, JsonNode node, String path) throws ScenarioException {
    List<NodeSelectorRequirement> out = new ArrayList<>();
    List<JsonNode> items = f.list(node, path);
    for (int i = 0; i < items.size(); i++) {
      String p = path + "[" + i + "]";
      JsonNode r = items.get(i);
      out.add(
          new NodeSelectorRequirement(
              f.requiredText(r.path("key"), p + ".key"),
              f.requiredText(r.path("operator"), p + ".operator"),
              f.stringList(r.path("values"), p + ".values")));
    }
    return out;
  }

  private static PodAffinity podAffinity(Fields f, JsonNode node, String path)
      throws ScenarioException {
    if (f.object(node, path) == null) {
      return new PodAffinity(null, null);
    }
    List<PodAffinityTerm> required = new ArrayList<>();
    List<JsonNode> reqs = f.list(node.path(REQUIRED), path + "." + REQUIRED);
    for (int i = 0; i < reqs.size(); i++) {
      required.add(podAffinityTerm(f, reqs.get(i), path + "." + REQUIRED + "[" + i + "]"));
    }
    List<WeightedPodAffinityTerm> preferred = new ArrayList<>();
    List<JsonNode> prefs = f.list(node.path(PREFERRED), path + "." + PREFERRED);
    for (int i = 0; i < prefs.size(); i++) {
      String p = path + "." + PREFERRED + "[" + i + "]";
      Integer weight = f.integer(prefs.get(i).path("weight"), p + ".weight");
      preferred.add(
          new WeightedPodAffinityTerm(
              weight == null ? 0 : weight,
              podAffinityTerm(f, prefs.get(i).path("podAffinityTerm"), p + ".podAffinityTerm")));
    }
    return new PodAffinity(required, preferred);
  }

  private static PodAffinityTerm podAffinityTerm(Fields f, JsonNode node, String path)
      throws ScenarioException {
    f.object(node, path);
    return new PodAffinityTerm(
        MetaReader.selector(f, node.path("labelSelector"), path + ".labelSelector"),
        f.stringList(node.path("namespaces"), path + ".namespaces"),
        f.text(node.path("topologyKey"), path + ".topologyKey"),
        MetaReader.selector(f, node.path("namespaceSelector"), path + ".namespaceSelector"),
        f.stringList(node.path("matchLabelKeys"), path + ".matchLabelKeys"),
        f.stringList(node.path("mismatchLabelKeys"), path + ".mismatchLabelKeys"));
  }

  private static List<TopologySpreadConstraint> spreadConstraints(Fields f, JsonNode node)
      throws ScenarioException {
    List<TopologySpreadConstraint> out = new ArrayList<>();
    List<JsonNode> items = f.list(node, "spec.topologySpreadConstraints");
    for (int i = 0; i < items.size(); i++) {
      String p = "spec.topologySpreadConstraints[" + i + "]";
      JsonNode c = items.get(i);
      Integer maxSkew = f.integer(c.path("maxSkew"), p + ".maxSkew");
      String whenUnsatisfiable = f.text(c.path("whenUnsatisfiable"), p + ".whenUnsatisfiable");
      out.add(
          new TopologySpreadConstraint(
              maxSkew == null ? 1 : maxSkew,
              f.requiredText(c.path("topologyKey"), p + ".topologyKey"),
              whenUnsatisfiable == null ? "DoNotSchedule" : whenUnsatisfiable,
              MetaReader.selector(f, c.path("labelSelector"), p + ".labelSelector"),
              f.integer(c.path("minDomains"), p + ".minDomains"),
              f.text(c.path("nodeAffinityPolicy"), p + ".nodeAffinityPolicy"),
              f.text(c.path("nodeTaintsPolicy"), p + ".nodeTaintsPolicy"),
              f.stringList(c.path("matchLabelKeys"), p + ".matchLabelKeys")));
    }
    return out;
  }

  /** The effects Kubernetes accepts on a toleration ("" tolerates every effect). */
  private static final List<String> TOLERATION_EFFECTS =
      List.of("", "NoSchedule", "PreferNoSchedule", "NoExecute");
}
