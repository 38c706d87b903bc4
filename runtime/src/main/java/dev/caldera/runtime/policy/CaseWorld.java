package dev.caldera.runtime.policy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.caldera.api.GoDuration;
import dev.caldera.api.Session;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.PodFacts;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.model.Container;
import dev.caldera.api.model.ObjectMeta;
import dev.caldera.api.model.OwnerReference;
import dev.caldera.api.model.Pod;
import dev.caldera.api.model.PodGroup;
import dev.caldera.api.model.PriorityClass;
import dev.caldera.api.model.Queue;
import dev.caldera.api.resource.Quantity;
import dev.caldera.dsl.SessionPolicyContext;
import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.SessionViews;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The little cluster a case describes, as Kubernetes objects: its queues, the pods the case names
 * (each in a pod group of its own), and for a queue with {@code allocated} a running pod holding
 * that much. {@link #open} hands them to the framework as a snapshot and reads them back through
 * the framework's own session views, so a case sees a pod exactly as {@code caldera run} does.
 */
public final class CaseWorld {

  private static final Instant DEFAULT_NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final Set<String> TASK_KEYS =
      Set.of(
          "name",
          "namespace",
          "labels",
          "annotations",
          "owner",
          "priority",
          "priorityClass",
          "request",
          "status",
          "queue",
          "age",
          "created",
          "podgroup");
  private static final Set<String> PODGROUP_KEYS =
      Set.of(
          "name",
          "labels",
          "annotations",
          "priority",
          "priorityClass",
          "minMember",
          "age",
          "created");
  private static final String POD_STATUSES =
      "pending, bound, running, releasing, succeeded, failed, unknown";
  private static final Set<String> QUEUE_KEYS =
      Set.of(
          "reclaimable",
          "priority",
          "weight",
          "state",
          "parent",
          "capability",
          "deserved",
          "guarantee",
          "allocated",
          "labels",
          "annotations",
          "age",
          "created");

  /** The node a case's bound pod names; it is not in the snapshot. */
  static final String CASE_NODE = "caldera-cases-node";

  private final Instant now;
  private final Map<String, Queue> queues = new LinkedHashMap<>();
  private final Map<String, PodGroup> podGroups = new LinkedHashMap<>();
  private final Map<String, String> podGroupRoles = new HashMap<>();
  private final List<Pod> pods = new ArrayList<>();
  private final Map<String, PriorityClass> priorityClasses = new TreeMap<>();
  private Session session;

  /** A world at {@code now} (ISO-8601; null for 2026-01-01T00:00:00Z) with {@code queues}. */
  public CaseWorld(String now, JsonNode queues) {
    try {
      this.now = now == null ? DEFAULT_NOW : Instant.parse(now);
    } catch (DateTimeParseException e) {
      throw new CaseException("now: expected a time such as 2026-01-01T00:00:00Z, got " + now);
    }
    if (queues != null && queues.isObject()) {
      for (Map.Entry<String, JsonNode> e : queues.properties()) {
        queue(e.getKey(), e.getValue());
      }
    }
  }

  /** The framework's views of this world (built on the first call; nothing can be added after). */
  public Session open() {
    if (session == null) {
      session =
          SessionViews.open(
              new ClusterSnapshot(
                  List.of(),
                  pods,
                  new ArrayList<>(podGroups.values()),
                  new ArrayList<>(queues.values()),
                  new dev.caldera.api.ClusterInfo(
                      new ArrayList<>(priorityClasses.values()), null, null, null, null),
                  now));
    }
    return session;
  }

  /** The context a policy reads this world through. */
  public SessionPolicyContext context() {
    return new SessionPolicyContext(open());
  }

  /**
   * The view of the queue called {@code name}, made with defaults if the case did not describe it.
   */
  public QueueInfo queue(String name) {
    addQueue(name);
    return open().queue(name);
  }

  /** A pod {@link #task} added: its pod group's key and its own. */
  public record TaskRef(String podGroup, String pod) {}

  /** The framework's view of the pod {@code ref} names (opens the world). */
  public TaskInfo view(TaskRef ref) {
    JobInfo job = open().job(ref.podGroup());
    for (TaskInfo t : job.tasks()) {
      if (t.key().equals(ref.pod())) {
        return t;
      }
    }
    throw new IllegalStateException("no task " + ref.pod() + " in " + ref.podGroup());
  }

  /** Adds the queue {@code name} with defaults unless the world has it. */
  public void addQueue(String name) {
    if (!queues.containsKey(name)) {
      requireOpenForChanges();
      queues.put(
          name,
          queueObject(name, 1, null, null, null, null, "", 0, null, Map.of(), Map.of(), null));
    }
  }

  private void requireOpenForChanges() {
    if (session != null) {
      throw new IllegalStateException("the world is already open");
    }
  }

  private static Queue queueObject(
      String name,
      int weight,
      Map<String, Quantity> capability,
      Map<String, Quantity> deserved,
      Map<String, Quantity> guarantee,
      Boolean reclaimable,
      String parent,
      int priority,
      String state,
      Map<String, String> labels,
      Map<String, String> annotations,
      Instant created) {
    return new Queue(
        new ObjectMeta(name, "", null, created, null, labels, annotations, null),
        weight,
        capability,
        deserved,
        guarantee,
        reclaimable,
        parent,
        priority,
        null,
        null,
        state,
        null);
  }

  private void queue(String name, JsonNode spec) {
    String where = "queues." + name;
    if (!spec.isObject()) {
      throw new CaseException(where + ": expected a map");
    }
    PolicyCases.keys(spec, QUEUE_KEYS, where);
    queues.put(
        name,
        queueObject(
            name,
            spec.has("weight") ? integer(spec.get("weight"), where + ".weight") : 1,
            spec.has("capability")
                ? quantities(spec.get("capability"), where + ".capability")
                : null,
            spec.has("deserved") ? quantities(spec.get("deserved"), where + ".deserved") : null,
            spec.has("guarantee") ? quantities(spec.get("guarantee"), where + ".guarantee") : null,
            spec.has("reclaimable") ? bool(spec.get("reclaimable"), where + ".reclaimable") : null,
            spec.has("parent") ? spec.get("parent").asText() : "",
            spec.has("priority") ? integer(spec.get("priority"), where + ".priority") : 0,
            spec.has("state") ? spec.get("state").asText() : null,
            strings(spec.get("labels"), where + ".labels"),
            strings(spec.get("annotations"), where + ".annotations"),
            created(spec, where)));
    if (spec.has("allocated")) {
      String group = "allocated-" + name;
      podGroups.put(
          "caldera-cases/" + group,
          new PodGroup(
              ObjectMeta.named("caldera-cases", group), name, 1, null, null, null, null, null));
      pods.add(
          pod(
              new ObjectMeta(
                  "allocated",
                  "caldera-cases",
                  null,
                  null,
                  null,
                  null,
                  Map.of(PodFacts.GROUP_NAME, group),
                  null),
              null,
              "",
              quantities(spec.get("allocated"), where + ".allocated"),
              "Running",
              ""));
    }
  }

  private static Pod pod(
      ObjectMeta meta,
      Integer priority,
      String priorityClass,
      Map<String, Quantity> requests,
      String phase,
      String nodeName) {
    return new Pod(
        meta,
        null,
        nodeName,
        priority,
        priorityClass,
        null,
        null,
        null,
        null,
        null,
        null,
        List.of(new Container("main", null, requests, null, null)),
        null,
        null,
        null,
        null,
        phase,
        null,
        null);
  }

  /**
   * Adds the pod a case describes as {@code role} (reclaimer, candidate, task), in a pod group of
   * its own; {@link #view} finds its view once every pod is added. Reclaimers and preemptive tasks
   * default to Pending, candidates to Running.
   */
  public TaskRef task(String role, JsonNode spec) {
    requireOpenForChanges();
    if (spec == null || !spec.isObject()) {
      throw new CaseException(role + ": expected a map");
    }
    PolicyCases.keys(spec, TASK_KEYS, role);
    String namespace = spec.path("namespace").asText("default");
    String name = spec.path("name").asText(role + "-0");
    JsonNode pg = spec.path("podgroup");
    if (!pg.isMissingNode()) {
      PolicyCases.keys(pg, PODGROUP_KEYS, role + ".podgroup");
    }
    String group = pg.path("name").asText(role);
    String groupKey = namespace + "/" + group;
    String other = podGroupRoles.putIfAbsent(groupKey, role);
    if (other != null) {
      throw new CaseException(
          role + ".podgroup.name: the pod group " + groupKey + " is already " + other + "'s");
    }
    String queue = spec.path("queue").asText("default");
    addQueue(queue);
    String groupClass = pg.has("priorityClass") ? pg.get("priorityClass").asText() : "";
    if (pg.has("priority")) {
      // A pod group's priority is its priority class's value: the case's class (or one named
      // after the pod group) is given that value.
      if (groupClass.isEmpty()) {
        groupClass = "caldera-cases-" + namespace + "-" + group;
      }
      int value = integer(pg.get("priority"), role + ".podgroup.priority");
      PriorityClass known = priorityClasses.get(groupClass);
      if (known != null && known.value() != value) {
        throw new CaseException(
            role
                + ".podgroup.priority: the priority class "
                + groupClass
                + " already has the value "
                + known.value());
      }
      priorityClasses.put(groupClass, new PriorityClass(groupClass, value, false));
    }
    podGroups.put(
        groupKey,
        new PodGroup(
            new ObjectMeta(
                group,
                namespace,
                null,
                created(pg, role + ".podgroup"),
                null,
                strings(pg.get("labels"), role + ".podgroup.labels"),
                strings(pg.get("annotations"), role + ".podgroup.annotations"),
                null),
            queue,
            pg.has("minMember") ? integer(pg.get("minMember"), role + ".podgroup.minMember") : 1,
            null,
            null,
            groupClass,
            null,
            null));

    Map<String, String> annotations =
        new TreeMap<>(strings(spec.get("annotations"), role + ".annotations"));
    annotations.put(PodFacts.GROUP_NAME, group);
    List<OwnerReference> owners = new ArrayList<>();
    JsonNode owner = spec.get("owner");
    if (owner != null) {
      String kind = owner.isObject() ? owner.path("kind").asText() : owner.asText();
      String ownerName = owner.isObject() ? owner.path("name").asText("owner") : "owner";
      owners.add(new OwnerReference("v1", kind, ownerName, ownerName + "-uid", true));
    }
    String status = role.equals("candidate") ? "running" : "pending";
    if (spec.has("status")) {
      status = spec.get("status").asText().toLowerCase(Locale.ROOT);
    }
    String phase;
    String nodeName = "";
    boolean deleting = false;
    switch (status) {
      case "pending" -> phase = "Pending";
      case "bound" -> {
        phase = "Pending";
        nodeName = CASE_NODE;
      }
      case "running" -> phase = "Running";
      case "releasing" -> {
        phase = "Running";
        deleting = true;
      }
      case "succeeded" -> phase = "Succeeded";
      case "failed" -> phase = "Failed";
      case "unknown" -> phase = "Unknown";
      default ->
          throw new CaseException(
              role
                  + ".status: "
                  + spec.get("status").asText()
                  + " is not a status a pod has before a session; expected one of "
                  + POD_STATUSES);
    }
    Instant created = created(spec, role);
    pods.add(
        pod(
            new ObjectMeta(
                name,
                namespace,
                null,
                created,
                deleting ? now : null,
                strings(spec.get("labels"), role + ".labels"),
                annotations,
                owners),
            spec.has("priority") ? integer(spec.get("priority"), role + ".priority") : null,
            spec.has("priorityClass") ? spec.get("priorityClass").asText() : null,
            spec.has("request") ? quantities(spec.get("request"), role + ".request") : Map.of(),
            phase,
            nodeName));
    return new TaskRef(groupKey, namespace + "/" + name);
  }

  private Instant created(JsonNode spec, String where) {
    if (spec.has("created")) {
      try {
        return Instant.parse(spec.get("created").asText());
      } catch (DateTimeParseException e) {
        throw new CaseException(where + ".created: expected a time such as 2026-01-01T00:00:00Z");
      }
    }
    if (spec.has("age")) {
      try {
        return now.minus(GoDuration.parse(spec.get("age").asText()));
      } catch (IllegalArgumentException e) {
        throw new CaseException(where + ".age: expected a duration such as 10m or 2h");
      }
    }
    return null;
  }

  private static Map<String, Quantity> quantities(JsonNode map, String where) {
    if (!map.isObject()) {
      throw new CaseException(where + ": expected a map of resource: quantity");
    }
    Map<String, Quantity> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : map.properties()) {
      try {
        out.put(e.getKey(), Quantity.parse(e.getValue().asText()));
      } catch (IllegalArgumentException ex) {
        throw new CaseException(where + "." + e.getKey() + ": " + ex.getMessage());
      }
    }
    return out;
  }

  private static Map<String, String> strings(JsonNode map, String where) {
    if (map == null) {
      return Map.of();
    }
    if (!map.isObject()) {
      throw new CaseException(where + ": expected a map of strings");
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : map.properties()) {
      out.put(e.getKey(), e.getValue().asText());
    }
    return out;
  }

  private static boolean bool(JsonNode n, String where) {
    if (!n.isBoolean()) {
      throw new CaseException(where + ": expected true or false");
    }
    return n.asBoolean();
  }

  private static int integer(JsonNode n, String where) {
    if (!n.canConvertToInt() || !n.isIntegralNumber()) {
      throw new CaseException(where + ": expected an integer");
    }
    return n.asInt();
  }
}
