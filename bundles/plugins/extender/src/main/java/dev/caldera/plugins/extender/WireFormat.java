package dev.caldera.plugins.extender;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.caldera.api.ClusterInfo;
import dev.caldera.api.Session;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.NodeInfo;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.Container;
import dev.caldera.api.model.ContainerImage;
import dev.caldera.api.model.ContainerPort;
import dev.caldera.api.model.Namespace;
import dev.caldera.api.model.Node;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.OwnerReference;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodCondition;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.Queue;
import dev.caldera.api.model.ResourceQuota;
import dev.caldera.api.model.Taint;
import dev.caldera.api.model.Toleration;
import dev.caldera.api.resource.Quantity;
import dev.caldera.api.resource.ResourceNames;
import dev.caldera.api.resource.ResourceView;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Writes scheduler objects as JSON shaped like Volcano's: its {@code TaskInfo}, {@code NodeInfo},
 * {@code JobInfo}, {@code QueueInfo} and {@code Resource} carry no JSON tags, so their fields keep
 * Go's names ({@code UID}, {@code Resreq}, {@code MilliCPU}, ...), while the Kubernetes objects
 * inside them ({@code Pod}, {@code Node}, {@code PodGroup}, {@code Queue}) use the usual API
 * spelling. Maps are written with sorted keys, as Go's encoder does. Task statuses are Volcano's
 * bit values (Pending 1, Allocated 2, Pipelined 4, ... Unknown 512).
 *
 * <p>What is written is the part of those objects that Caldera models; pod and node affinity,
 * topology spread constraints and Volcano-internal fields (NUMA, devices) are left out.
 */
final class WireFormat {

  private static final JsonFactory FACTORY = new JsonFactory();

  /** Volcano's {@code NodePhase} {@code Ready}; every node in a session is ready. */
  private static final int NODE_READY = 1;

  /** Writes one JSON value. */
  @FunctionalInterface
  interface Body {
    void write(JsonGenerator g) throws IOException;
  }

  private WireFormat() {}

  /** {@code body} as UTF-8 bytes. */
  static byte[] encode(Body body) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      body.write(g);
    } catch (IOException e) {
      // Writing to memory does not fail; this would be a bug in a writer.
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** {@code body} as a string, to be reused with {@link JsonGenerator#writeRawValue(String)}. */
  static String encodeToString(Body body) {
    StringWriter out = new StringWriter(1024);
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      body.write(g);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  // ------------------------------------------------------------ requests

  /** {@code OnSessionOpenRequest}: jobs, nodes, queues and namespaces of the session. */
  static void sessionOpenRequest(JsonGenerator g, Session session) throws IOException {
    g.writeStartObject();
    g.writeFieldName("Jobs");
    g.writeStartObject();
    Map<String, JobInfo> jobs = new TreeMap<>();
    for (JobInfo j : session.jobs()) {
      jobs.put(j.uid(), j);
    }
    for (Map.Entry<String, JobInfo> e : jobs.entrySet()) {
      g.writeFieldName(e.getKey());
      job(g, e.getValue());
    }
    g.writeEndObject();
    g.writeFieldName("Nodes");
    g.writeStartObject();
    Map<String, NodeInfo> nodes = new TreeMap<>();
    for (NodeInfo n : session.nodes()) {
      nodes.put(n.name(), n);
    }
    for (Map.Entry<String, NodeInfo> e : nodes.entrySet()) {
      g.writeFieldName(e.getKey());
      node(g, e.getValue());
    }
    g.writeEndObject();
    g.writeFieldName("Queues");
    g.writeStartObject();
    Map<String, QueueInfo> queues = new TreeMap<>();
    for (QueueInfo q : session.queues()) {
      queues.put(q.name(), q);
    }
    for (Map.Entry<String, QueueInfo> e : queues.entrySet()) {
      g.writeFieldName(e.getKey());
      queue(g, e.getValue());
    }
    g.writeEndObject();
    g.writeFieldName("NamespaceInfo");
    namespaces(g, session.cluster());
    g.writeFieldName("RevocableNodes");
    g.writeStartObject();
    g.writeEndObject();
    g.writeNullField("NodeList");
    g.writeEndObject();
  }

  private static void namespaces(JsonGenerator g, ClusterInfo cluster) throws IOException {
    TreeSet<String> names = new TreeSet<>();
    for (Namespace ns : cluster.namespaces()) {
      names.add(ns.metadata().name());
    }
    for (ResourceQuota q : cluster.resourceQuotas()) {
      names.add(q.metadata().namespace());
    }
    g.writeStartObject();
    for (String name : names) {
      g.writeFieldName(name);
      g.writeStartObject();
      g.writeStringField("Name", name);
      g.writeFieldName("QuotaStatus");
      g.writeStartObject();
      Map<String, ResourceQuota> quotas = new TreeMap<>();
      for (ResourceQuota q : cluster.resourceQuotas()) {
        if (q.metadata().namespace().equals(name)) {
          quotas.put(q.metadata().name(), q);
        }
      }
      for (Map.Entry<String, ResourceQuota> e : quotas.entrySet()) {
        g.writeFieldName(e.getKey());
        g.writeStartObject();
        quantitiesField(g, "hard", e.getValue().hard());
        quantitiesField(g, "used", e.getValue().used());
        g.writeEndObject();
      }
      g.writeEndObject();
      g.writeEndObject();
    }
    g.writeEndObject();
  }

  // ------------------------------------------------------------ scheduler views

  /** A {@code TaskInfo}. */
  static void task(JsonGenerator g, TaskInfo t) throws IOException {
    g.writeStartObject();
    g.writeStringField("UID", t.uid());
    g.writeStringField("Job", t.jobId());
    g.writeStringField("Name", t.name());
    g.writeStringField("TaskRole", t.taskRole());
    g.writeStringField("Namespace", t.namespace());
    g.writeStringField("NodeName", t.nodeName());
    g.writeBooleanField("EvictionOccurred", t.evictionOccurred());
    g.writeNumberField("Status", 1 << t.status().ordinal());
    g.writeFieldName("Resreq");
    resource(g, t.resreq());
    g.writeFieldName("InitResreq");
    resource(g, t.initResreq());
    g.writeNumberField("Priority", t.priority());
    g.writeBooleanField("Preemptable", t.preemptable());
    g.writeBooleanField("BestEffort", t.bestEffort());
    g.writeBooleanField("SchGated", t.schedulingGated());
    g.writeFieldName("Pod");
    pod(g, t.pod());
    g.writeEndObject();
  }

  /** A {@code NodeInfo}, with its tasks keyed by {@code namespace/name}. */
  static void node(JsonGenerator g, NodeInfo n) throws IOException {
    g.writeStartObject();
    g.writeStringField("Name", n.name());
    g.writeFieldName("Node");
    k8sNode(g, n.node());
    g.writeFieldName("State");
    g.writeStartObject();
    g.writeNumberField("Phase", NODE_READY);
    g.writeStringField("Reason", "");
    g.writeEndObject();
    g.writeFieldName("Releasing");
    resource(g, n.releasing());
    g.writeFieldName("Pipelined");
    resource(g, n.pipelined());
    g.writeFieldName("Idle");
    resource(g, n.idle());
    g.writeFieldName("Used");
    resource(g, n.used());
    g.writeFieldName("Allocatable");
    resource(g, n.allocatable());
    g.writeFieldName("Capacity");
    resource(g, n.capacity());
    g.writeFieldName("Tasks");
    g.writeStartObject();
    Map<String, TaskInfo> tasks = new TreeMap<>();
    for (TaskInfo t : n.tasks()) {
      tasks.put(t.key(), t);
    }
    for (Map.Entry<String, TaskInfo> e : tasks.entrySet()) {
      g.writeFieldName(e.getKey());
      task(g, e.getValue());
    }
    g.writeEndObject();
    g.writeEndObject();
  }

  /** A {@code JobInfo}, with its tasks keyed by UID. */
  static void job(JsonGenerator g, JobInfo j) throws IOException {
    g.writeStartObject();
    g.writeStringField("UID", j.uid());
    g.writeStringField("Name", j.name());
    g.writeStringField("Namespace", j.namespace());
    g.writeStringField("Queue", j.queue());
    g.writeNumberField("Priority", j.priority());
    g.writeNumberField("MinAvailable", j.minAvailable());
    g.writeFieldName("TaskMinAvailable");
    g.writeStartObject();
    for (Map.Entry<String, Integer> e : new TreeMap<>(j.taskMinAvailable()).entrySet()) {
      g.writeNumberField(e.getKey(), e.getValue());
    }
    g.writeEndObject();
    g.writeNumberField("TaskMinAvailableTotal", j.taskMinAvailableTotal());
    g.writeFieldName("Tasks");
    g.writeStartObject();
    Map<String, TaskInfo> tasks = new TreeMap<>();
    for (TaskInfo t : j.tasks()) {
      tasks.put(t.uid(), t);
    }
    for (Map.Entry<String, TaskInfo> e : tasks.entrySet()) {
      g.writeFieldName(e.getKey());
      task(g, e.getValue());
    }
    g.writeEndObject();
    g.writeFieldName("Allocated");
    resource(g, j.allocated());
    g.writeFieldName("TotalRequest");
    resource(g, j.totalRequest());
    timeField(g, "CreationTimestamp", j.creationTimestamp());
    g.writeFieldName("PodGroup");
    podGroup(g, j.podGroup(), j.phase().name());
    g.writeBooleanField("Preemptable", j.preemptable());
    g.writeEndObject();
  }

  /** A {@code QueueInfo}. */
  static void queue(JsonGenerator g, QueueInfo q) throws IOException {
    g.writeStartObject();
    g.writeStringField("UID", q.name());
    g.writeStringField("Name", q.name());
    g.writeNumberField("Weight", q.weight());
    g.writeNumberField("Priority", q.priority());
    g.writeStringField("Parent", q.parent());
    g.writeBooleanField("Reclaimable", q.reclaimable());
    g.writeFieldName("Queue");
    queueObject(g, q.queue());
    g.writeEndObject();
  }

  /**
   * A Volcano {@code Resource}: cpu in milli-cores, memory in bytes, scalars (pods included) by
   * name, scalar values in milli-units except {@code pods}.
   */
  static void resource(JsonGenerator g, ResourceView r) throws IOException {
    g.writeStartObject();
    g.writeNumberField("MilliCPU", r.milliCpu());
    g.writeNumberField("Memory", r.memory());
    int[] scalars = r.scalarIndices();
    if (scalars.length == 0) {
      g.writeNullField("ScalarResources");
    } else {
      Map<String, Double> byName = new TreeMap<>();
      for (int i : scalars) {
        byName.put(ResourceNames.nameOf(i), r.get(i));
      }
      g.writeFieldName("ScalarResources");
      g.writeStartObject();
      for (Map.Entry<String, Double> e : byName.entrySet()) {
        g.writeNumberField(e.getKey(), e.getValue());
      }
      g.writeEndObject();
    }
    g.writeNumberField("MaxTaskNum", r.maxTaskNum());
    g.writeEndObject();
  }

  // ------------------------------------------------------------ Kubernetes objects

  /** A {@code v1.Pod}. */
  static void pod(JsonGenerator g, Pod p) throws IOException {
    g.writeStartObject();
    g.writeFieldName("metadata");
    meta(g, p.metadata());
    g.writeFieldName("spec");
    g.writeStartObject();
    if (!p.nodeSelector().isEmpty()) {
      stringsField(g, "nodeSelector", p.nodeSelector());
    }
    containersField(g, "initContainers", p.initContainers());
    containersField(g, "containers", p.containers());
    if (!p.nodeName().isEmpty()) {
      g.writeStringField("nodeName", p.nodeName());
    }
    g.writeStringField("schedulerName", p.schedulerName());
    if (!p.tolerations().isEmpty()) {
      g.writeFieldName("tolerations");
      g.writeStartArray();
      for (Toleration t : p.tolerations()) {
        g.writeStartObject();
        if (!t.key().isEmpty()) {
          g.writeStringField("key", t.key());
        }
        g.writeStringField("operator", t.operator());
        if (!t.value().isEmpty()) {
          g.writeStringField("value", t.value());
        }
        if (!t.effect().isEmpty()) {
          g.writeStringField("effect", t.effect());
        }
        if (t.tolerationSeconds() != null) {
          g.writeNumberField("tolerationSeconds", t.tolerationSeconds());
        }
        g.writeEndObject();
      }
      g.writeEndArray();
    }
    if (!p.priorityClassName().isEmpty()) {
      g.writeStringField("priorityClassName", p.priorityClassName());
    }
    if (p.priority() != null) {
      g.writeNumberField("priority", p.priority());
    }
    if (!p.preemptionPolicy().isEmpty()) {
      g.writeStringField("preemptionPolicy", p.preemptionPolicy());
    }
    if (!p.overhead().isEmpty()) {
      quantitiesField(g, "overhead", p.overhead());
    }
    if (!p.schedulingGates().isEmpty()) {
      g.writeFieldName("schedulingGates");
      g.writeStartArray();
      for (String gate : p.schedulingGates()) {
        g.writeStartObject();
        g.writeStringField("name", gate);
        g.writeEndObject();
      }
      g.writeEndArray();
    }
    g.writeEndObject();
    g.writeFieldName("status");
    g.writeStartObject();
    g.writeStringField("phase", p.phase());
    conditionsField(g, p.conditions());
    if (!p.nominatedNodeName().isEmpty()) {
      g.writeStringField("nominatedNodeName", p.nominatedNodeName());
    }
    g.writeEndObject();
    g.writeEndObject();
  }

  /** A {@code v1.Node}. */
  static void k8sNode(JsonGenerator g, Node n) throws IOException {
    g.writeStartObject();
    g.writeFieldName("metadata");
    meta(g, n.metadata());
    g.writeFieldName("spec");
    g.writeStartObject();
    if (n.unschedulable()) {
      g.writeBooleanField("unschedulable", true);
    }
    if (!n.taints().isEmpty()) {
      g.writeFieldName("taints");
      g.writeStartArray();
      for (Taint t : n.taints()) {
        g.writeStartObject();
        g.writeStringField("key", t.key());
        if (!t.value().isEmpty()) {
          g.writeStringField("value", t.value());
        }
        g.writeStringField("effect", t.effect());
        g.writeEndObject();
      }
      g.writeEndArray();
    }
    g.writeEndObject();
    g.writeFieldName("status");
    g.writeStartObject();
    quantitiesField(g, "capacity", n.capacity());
    quantitiesField(g, "allocatable", n.allocatable());
    if (!n.images().isEmpty()) {
      g.writeFieldName("images");
      g.writeStartArray();
      for (ContainerImage image : n.images()) {
        g.writeStartObject();
        g.writeFieldName("names");
        g.writeStartArray();
        for (String name : image.names()) {
          g.writeString(name);
        }
        g.writeEndArray();
        g.writeNumberField("sizeBytes", image.sizeBytes());
        g.writeEndObject();
      }
      g.writeEndArray();
    }
    g.writeEndObject();
    g.writeEndObject();
  }

  /** A {@code PodGroup} with the phase of this session. */
  static void podGroup(JsonGenerator g, PodGroup pg, String phase) throws IOException {
    g.writeStartObject();
    g.writeFieldName("metadata");
    meta(g, pg.metadata());
    g.writeFieldName("spec");
    g.writeStartObject();
    g.writeNumberField("minMember", pg.minMember());
    if (!pg.minTaskMember().isEmpty()) {
      g.writeFieldName("minTaskMember");
      g.writeStartObject();
      for (Map.Entry<String, Integer> e : new TreeMap<>(pg.minTaskMember()).entrySet()) {
        g.writeNumberField(e.getKey(), e.getValue());
      }
      g.writeEndObject();
    }
    if (!pg.queue().isEmpty()) {
      g.writeStringField("queue", pg.queue());
    }
    if (!pg.priorityClassName().isEmpty()) {
      g.writeStringField("priorityClassName", pg.priorityClassName());
    }
    if (pg.minResources() != null) {
      quantitiesField(g, "minResources", pg.minResources());
    }
    g.writeEndObject();
    g.writeFieldName("status");
    g.writeStartObject();
    g.writeStringField("phase", phase);
    conditionsField(g, pg.conditions());
    g.writeEndObject();
    g.writeEndObject();
  }

  /** A Volcano {@code Queue}. */
  static void queueObject(JsonGenerator g, Queue q) throws IOException {
    g.writeStartObject();
    g.writeFieldName("metadata");
    meta(g, q.metadata());
    g.writeFieldName("spec");
    g.writeStartObject();
    g.writeNumberField("weight", q.weight());
    if (q.capability() != null) {
      quantitiesField(g, "capability", q.capability());
    }
    if (q.reclaimable() != null) {
      g.writeBooleanField("reclaimable", q.reclaimable());
    }
    if (q.deserved() != null) {
      quantitiesField(g, "deserved", q.deserved());
    }
    if (q.guarantee() != null) {
      g.writeFieldName("guarantee");
      g.writeStartObject();
      quantitiesField(g, "resource", q.guarantee());
      g.writeEndObject();
    }
    if (!q.parent().isEmpty()) {
      g.writeStringField("parent", q.parent());
    }
    if (q.priority() != 0) {
      g.writeNumberField("priority", q.priority());
    }
    g.writeEndObject();
    g.writeFieldName("status");
    g.writeStartObject();
    g.writeStringField("state", q.state());
    if (!q.allocated().isEmpty()) {
      quantitiesField(g, "allocated", q.allocated());
    }
    g.writeEndObject();
    g.writeEndObject();
  }

  private static void meta(JsonGenerator g, ObjectMeta m) throws IOException {
    g.writeStartObject();
    g.writeStringField("name", m.name());
    if (!m.namespace().isEmpty()) {
      g.writeStringField("namespace", m.namespace());
    }
    g.writeStringField("uid", m.uid());
    timeField(g, "creationTimestamp", m.creationTimestamp());
    if (m.deletionTimestamp() != null) {
      timeField(g, "deletionTimestamp", m.deletionTimestamp());
    }
    if (!m.labels().isEmpty()) {
      stringsField(g, "labels", m.labels());
    }
    if (!m.annotations().isEmpty()) {
      stringsField(g, "annotations", m.annotations());
    }
    if (!m.ownerReferences().isEmpty()) {
      g.writeFieldName("ownerReferences");
      g.writeStartArray();
      for (OwnerReference o : m.ownerReferences()) {
        g.writeStartObject();
        if (o.apiVersion() != null) {
          g.writeStringField("apiVersion", o.apiVersion());
        }
        g.writeStringField("kind", o.kind());
        g.writeStringField("name", o.name());
        if (o.uid() != null) {
          g.writeStringField("uid", o.uid());
        }
        if (o.controller()) {
          g.writeBooleanField("controller", true);
        }
        g.writeEndObject();
      }
      g.writeEndArray();
    }
    g.writeEndObject();
  }

  private static void containersField(JsonGenerator g, String name, List<Container> containers)
      throws IOException {
    if (containers.isEmpty()) {
      return;
    }
    g.writeFieldName(name);
    g.writeStartArray();
    for (Container c : containers) {
      g.writeStartObject();
      g.writeStringField("name", c.name() == null ? "" : c.name());
      if (c.image() != null && !c.image().isEmpty()) {
        g.writeStringField("image", c.image());
      }
      g.writeFieldName("resources");
      g.writeStartObject();
      if (!c.requests().isEmpty()) {
        quantitiesField(g, "requests", c.requests());
      }
      g.writeEndObject();
      if (!c.ports().isEmpty()) {
        g.writeFieldName("ports");
        g.writeStartArray();
        for (ContainerPort port : c.ports()) {
          g.writeStartObject();
          g.writeNumberField("containerPort", port.containerPort());
          if (port.hostPort() != 0) {
            g.writeNumberField("hostPort", port.hostPort());
          }
          if (port.protocol() != null && !port.protocol().isEmpty()) {
            g.writeStringField("protocol", port.protocol());
          }
          if (port.hostIP() != null && !port.hostIP().isEmpty()) {
            g.writeStringField("hostIP", port.hostIP());
          }
          g.writeEndObject();
        }
        g.writeEndArray();
      }
      if (!c.restartPolicy().isEmpty()) {
        g.writeStringField("restartPolicy", c.restartPolicy());
      }
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  private static void conditionsField(JsonGenerator g, List<PodCondition> conditions)
      throws IOException {
    if (conditions.isEmpty()) {
      return;
    }
    g.writeFieldName("conditions");
    g.writeStartArray();
    for (PodCondition c : conditions) {
      g.writeStartObject();
      g.writeStringField("type", c.type());
      g.writeStringField("status", c.status());
      if (c.lastTransitionTime() != null) {
        timeField(g, "lastTransitionTime", c.lastTransitionTime());
      }
      if (c.reason() != null && !c.reason().isEmpty()) {
        g.writeStringField("reason", c.reason());
      }
      if (c.message() != null && !c.message().isEmpty()) {
        g.writeStringField("message", c.message());
      }
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  private static void quantitiesField(JsonGenerator g, String name, Map<String, Quantity> list)
      throws IOException {
    g.writeFieldName(name);
    g.writeStartObject();
    for (Map.Entry<String, Quantity> e : new TreeMap<>(list).entrySet()) {
      g.writeStringField(e.getKey(), e.getValue().toString());
    }
    g.writeEndObject();
  }

  private static void stringsField(JsonGenerator g, String name, Map<String, String> map)
      throws IOException {
    g.writeFieldName(name);
    g.writeStartObject();
    for (Map.Entry<String, String> e : new TreeMap<>(map).entrySet()) {
      g.writeStringField(e.getKey(), e.getValue());
    }
    g.writeEndObject();
  }

  /** A {@code metav1.Time}: RFC 3339 in whole seconds, null for the zero time (our EPOCH). */
  private static void timeField(JsonGenerator g, String name, Instant t) throws IOException {
    if (t == null || t.equals(Instant.EPOCH)) {
      g.writeNullField(name);
    } else {
      g.writeStringField(name, t.truncatedTo(ChronoUnit.SECONDS).toString());
    }
  }
}
