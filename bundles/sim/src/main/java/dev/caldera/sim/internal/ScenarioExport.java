package dev.caldera.sim.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import dev.caldera.api.model.Container;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.OwnerReference;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.PriorityClass;
import dev.caldera.api.model.Queue;
import dev.caldera.api.model.Taint;
import dev.caldera.api.model.Toleration;
import dev.caldera.api.resource.Quantity;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.loop.ClusterExport;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The embedded cluster as it is now, written as a scenario file (nodes, queues, priority classes,
 * pod groups and pods, with the fields the scenario reader takes), with the conf and policies in
 * force: what {@code caldera snapshot} of a running embedded scheduler gives, for {@code caldera
 * simulate} and {@code caldera diff}. Objects are sorted by kind, namespace and name.
 */
public final class ScenarioExport {

  private ScenarioExport() {}

  /**
   * The scenario of {@code snapshot}.
   *
   * @throws IllegalArgumentException for {@code anonymize}, which only the kube bundle's export
   *     does
   */
  public static String write(ClusterSnapshot snapshot, ClusterExport.Request request) {
    if (request.anonymize()) {
      throw new IllegalArgumentException(
          "anonymize: the embedded cluster's snapshot is not anonymized (its names are the demo's);"
              + " leave anonymize out");
    }
    Map<String, Object> scenario = new LinkedHashMap<>();
    scenario.put("name", request.name());
    scenario.put(
        "description", "The embedded cluster of caldera run as it was at " + snapshot.now() + ".");
    ObjectMapper yaml = yamlMapper();
    if (request.conf() != null) {
      try {
        scenario.put("conf", yaml.readValue(request.conf(), Object.class));
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("the conf in force is not YAML: " + e.getOriginalMessage());
      }
    }
    if (!request.policies().isEmpty()) {
      scenario.put("policies", new TreeMap<>(request.policies()));
    }
    List<Object> objects = new ArrayList<>();
    snapshot.nodes().stream()
        .sorted(Comparator.comparing(Node::name))
        .forEach(n -> objects.add(node(n)));
    if (snapshot.info() != null) {
      snapshot.info().priorityClasses().stream()
          .sorted(Comparator.comparing(PriorityClass::name))
          .forEach(p -> objects.add(priorityClass(p)));
    }
    snapshot.queues().stream()
        .sorted(Comparator.comparing(Queue::name))
        .forEach(q -> objects.add(queue(q)));
    snapshot.podGroups().stream()
        .sorted(Comparator.comparing(PodGroup::key))
        .forEach(g -> objects.add(podGroup(g)));
    snapshot.pods().stream()
        .sorted(Comparator.comparing(Pod::key))
        .forEach(p -> objects.add(pod(p)));
    scenario.put("objects", objects);
    scenario.put("sessions", 1);
    try {
      return request.json()
          ? new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(scenario) + "\n"
          : yaml.writeValueAsString(scenario);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the snapshot: " + e.getOriginalMessage(), e);
    }
  }

  private static ObjectMapper yamlMapper() {
    return new ObjectMapper(
        YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .build());
  }

  private static Map<String, Object> object(String apiVersion, String kind, ObjectMeta meta) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("apiVersion", apiVersion);
    o.put("kind", kind);
    o.put("metadata", meta(meta));
    return o;
  }

  private static Map<String, Object> meta(ObjectMeta m) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("name", m.name());
    if (m.namespace() != null && !m.namespace().isEmpty()) {
      out.put("namespace", m.namespace());
    }
    if (m.uid() != null && !m.uid().isEmpty()) {
      out.put("uid", m.uid());
    }
    if (m.creationTimestamp() != null && !m.creationTimestamp().equals(java.time.Instant.EPOCH)) {
      out.put("creationTimestamp", m.creationTimestamp().toString());
    }
    if (m.deletionTimestamp() != null) {
      out.put("deletionTimestamp", m.deletionTimestamp().toString());
    }
    if (!m.labels().isEmpty()) {
      out.put("labels", new TreeMap<>(m.labels()));
    }
    if (!m.annotations().isEmpty()) {
      out.put("annotations", new TreeMap<>(m.annotations()));
    }
    if (!m.ownerReferences().isEmpty()) {
      List<Object> owners = new ArrayList<>();
      for (OwnerReference r : m.ownerReferences()) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("apiVersion", r.apiVersion());
        o.put("kind", r.kind());
        o.put("name", r.name());
        o.put("uid", r.uid());
        o.put("controller", r.controller());
        owners.add(o);
      }
      out.put("ownerReferences", owners);
    }
    return out;
  }

  private static Map<String, String> quantities(Map<String, Quantity> q) {
    Map<String, String> out = new TreeMap<>();
    if (q != null) {
      q.forEach((k, v) -> out.put(k, v.toString()));
    }
    return out;
  }

  private static Map<String, Object> node(Node n) {
    Map<String, Object> o = object("v1", "Node", n.metadata());
    Map<String, Object> spec = new LinkedHashMap<>();
    if (n.unschedulable()) {
      spec.put("unschedulable", true);
    }
    if (!n.taints().isEmpty()) {
      List<Object> taints = new ArrayList<>();
      for (Taint t : n.taints()) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("key", t.key());
        if (t.value() != null && !t.value().isEmpty()) {
          m.put("value", t.value());
        }
        m.put("effect", t.effect());
        taints.add(m);
      }
      spec.put("taints", taints);
    }
    if (!spec.isEmpty()) {
      o.put("spec", spec);
    }
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("allocatable", quantities(n.allocatable()));
    if (n.capacity() != null && !n.capacity().isEmpty()) {
      status.put("capacity", quantities(n.capacity()));
    }
    if (n.images() != null && !n.images().isEmpty()) {
      List<Object> images = new ArrayList<>();
      for (dev.caldera.api.model.ContainerImage i : n.images()) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("names", i.names());
        m.put("sizeBytes", i.sizeBytes());
        images.add(m);
      }
      status.put("images", images);
    }
    o.put("status", status);
    return o;
  }

  private static Map<String, Object> priorityClass(PriorityClass p) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("apiVersion", "scheduling.k8s.io/v1");
    o.put("kind", "PriorityClass");
    o.put("metadata", Map.of("name", p.name()));
    o.put("value", p.value());
    if (p.globalDefault()) {
      o.put("globalDefault", true);
    }
    return o;
  }

  private static Map<String, Object> queue(Queue q) {
    Map<String, Object> o = object("scheduling.volcano.sh/v1beta1", "Queue", q.metadata());
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("weight", q.weight());
    putIfAny(spec, "capability", quantities(q.capability()));
    putIfAny(spec, "deserved", quantities(q.deserved()));
    putIfAny(spec, "guarantee", Map.of("resource", quantities(q.guarantee())), q.guarantee());
    if (q.reclaimable() != null) {
      spec.put("reclaimable", q.reclaimable());
    }
    if (q.parent() != null && !q.parent().isEmpty()) {
      spec.put("parent", q.parent());
    }
    if (q.priority() != 0) {
      spec.put("priority", q.priority());
    }
    o.put("spec", spec);
    if (q.state() != null && !q.state().isEmpty()) {
      o.put("status", Map.of("state", q.state()));
    }
    return o;
  }

  private static void putIfAny(Map<String, Object> spec, String key, Map<String, String> value) {
    if (!value.isEmpty()) {
      spec.put(key, value);
    }
  }

  private static void putIfAny(
      Map<String, Object> spec, String key, Object value, Map<String, Quantity> source) {
    if (source != null && !source.isEmpty()) {
      spec.put(key, value);
    }
  }

  private static Map<String, Object> podGroup(PodGroup g) {
    Map<String, Object> o = object("scheduling.volcano.sh/v1beta1", "PodGroup", g.metadata());
    Map<String, Object> spec = new LinkedHashMap<>();
    if (!g.queue().isEmpty()) {
      spec.put("queue", g.queue());
    }
    spec.put("minMember", g.minMember());
    if (!g.minTaskMember().isEmpty()) {
      spec.put("minTaskMember", new TreeMap<>(g.minTaskMember()));
    }
    if (g.minResources() != null) {
      spec.put("minResources", quantities(g.minResources()));
    }
    if (g.priorityClassName() != null && !g.priorityClassName().isEmpty()) {
      spec.put("priorityClassName", g.priorityClassName());
    }
    o.put("spec", spec);
    o.put("status", status(g.phase(), g.conditions()));
    return o;
  }

  private static Map<String, Object> pod(Pod p) {
    Map<String, Object> o = object("v1", "Pod", p.metadata());
    Map<String, Object> spec = new LinkedHashMap<>();
    if (p.schedulerName() != null && !p.schedulerName().isEmpty()) {
      spec.put("schedulerName", p.schedulerName());
    }
    if (p.nodeName() != null && !p.nodeName().isEmpty()) {
      spec.put("nodeName", p.nodeName());
    }
    if (p.priorityClassName() != null && !p.priorityClassName().isEmpty()) {
      spec.put("priorityClassName", p.priorityClassName());
    }
    if (p.priority() != null) {
      spec.put("priority", p.priority());
    }
    if (p.nodeSelector() != null && !p.nodeSelector().isEmpty()) {
      spec.put("nodeSelector", new TreeMap<>(p.nodeSelector()));
    }
    if (p.tolerations() != null && !p.tolerations().isEmpty()) {
      List<Object> tolerations = new ArrayList<>();
      for (Toleration t : p.tolerations()) {
        Map<String, Object> m = new LinkedHashMap<>();
        putText(m, "key", t.key());
        putText(m, "operator", t.operator());
        putText(m, "value", t.value());
        putText(m, "effect", t.effect());
        tolerations.add(m);
      }
      spec.put("tolerations", tolerations);
    }
    List<Object> containers = new ArrayList<>();
    for (Container c : p.containers()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", c.name());
      m.put("resources", Map.of("requests", quantities(c.requests())));
      containers.add(m);
    }
    spec.put("containers", containers);
    o.put("spec", spec);
    Map<String, Object> status = status(p.phase(), p.conditions());
    if (p.nominatedNodeName() != null && !p.nominatedNodeName().isEmpty()) {
      status.put("nominatedNodeName", p.nominatedNodeName());
    }
    o.put("status", status);
    return o;
  }

  private static Map<String, Object> status(
      String phase, List<dev.caldera.api.model.PodCondition> conditions) {
    Map<String, Object> status = new LinkedHashMap<>();
    if (phase != null && !phase.isEmpty()) {
      status.put("phase", phase);
    }
    if (conditions != null && !conditions.isEmpty()) {
      List<Object> out = new ArrayList<>();
      for (dev.caldera.api.model.PodCondition c : conditions) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", c.type());
        m.put("status", c.status());
        putText(m, "reason", c.reason());
        putText(m, "message", c.message());
        if (c.lastTransitionTime() != null) {
          m.put("lastTransitionTime", c.lastTransitionTime().toString());
        }
        out.add(m);
      }
      status.put("conditions", out);
    }
    return status;
  }

  private static void putText(Map<String, Object> m, String key, String value) {
    if (value != null && !value.isEmpty()) {
      m.put(key, value);
    }
  }
}
