package dev.caldera.runtime.policy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.caldera.api.GoDuration;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.dsl.SessionPolicyContext;
import dev.caldera.testkit.FakeJob;
import dev.caldera.testkit.FakeQueue;
import dev.caldera.testkit.FakeSession;
import dev.caldera.testkit.FakeTask;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The little cluster a case describes, made of the test kit's fakes: its queues, the tasks the case
 * names (each in a pod group of its own), and for a queue with {@code allocated} a running task
 * holding that much.
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

  private final FakeSession session = new FakeSession();
  private final Instant now;

  /** A world at {@code now} (ISO-8601; null for 2026-01-01T00:00:00Z) with {@code queues}. */
  public CaseWorld(String now, JsonNode queues) {
    try {
      this.now = now == null ? DEFAULT_NOW : Instant.parse(now);
    } catch (DateTimeParseException e) {
      throw new CaseException("now: expected a time such as 2026-01-01T00:00:00Z, got " + now);
    }
    session.now(this.now);
    if (queues != null && queues.isObject()) {
      for (Map.Entry<String, JsonNode> e : queues.properties()) {
        queue(e.getKey(), e.getValue());
      }
    }
  }

  /** The context a policy reads this world through. */
  public SessionPolicyContext context() {
    return new SessionPolicyContext(session);
  }

  /** The queue called {@code name}, made with defaults if the case did not describe it. */
  public QueueInfo queue(String name) {
    FakeQueue q = session.queue(name);
    return q != null ? q : session.addQueue(name);
  }

  private void queue(String name, JsonNode spec) {
    String where = "queues." + name;
    if (!spec.isObject()) {
      throw new CaseException(where + ": expected a map");
    }
    PolicyCases.keys(spec, QUEUE_KEYS, where);
    FakeQueue q = session.addQueue(name);
    if (spec.has("reclaimable")) {
      q.reclaimable(bool(spec.get("reclaimable"), where + ".reclaimable"));
    }
    if (spec.has("priority")) {
      q.priority(integer(spec.get("priority"), where + ".priority"));
    }
    if (spec.has("weight")) {
      q.weight(integer(spec.get("weight"), where + ".weight"));
    }
    if (spec.has("state")) {
      q.state(spec.get("state").asText());
    }
    if (spec.has("parent")) {
      q.parent(spec.get("parent").asText());
    }
    if (spec.has("capability")) {
      q.capability(pairs(spec.get("capability"), where + ".capability"));
    }
    if (spec.has("deserved")) {
      q.deserved(pairs(spec.get("deserved"), where + ".deserved"));
    }
    if (spec.has("guarantee")) {
      q.guarantee(pairs(spec.get("guarantee"), where + ".guarantee"));
    }
    strings(spec.get("labels"), where + ".labels").forEach(q::label);
    strings(spec.get("annotations"), where + ".annotations").forEach(q::annotation);
    Instant created = created(spec, where);
    if (created != null) {
      q.created(created);
    }
    if (spec.has("allocated")) {
      session
          .addJob("caldera-cases/allocated-" + name)
          .queue(name)
          .task("allocated")
          .requests(pairs(spec.get("allocated"), where + ".allocated"))
          .status(TaskStatus.RUNNING);
    }
  }

  /**
   * Adds the task a case describes as {@code role} (reclaimer, candidate, task), in a pod group of
   * its own. Reclaimers and preemptive tasks default to Pending, candidates to Running.
   */
  public TaskInfo task(String role, JsonNode spec) {
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
    FakeJob job = session.addJob(namespace + "/" + pg.path("name").asText(role));
    String queue = spec.path("queue").asText("default");
    queue(queue);
    job.queue(queue);
    strings(pg.get("labels"), role + ".podgroup.labels").forEach(job::label);
    strings(pg.get("annotations"), role + ".podgroup.annotations").forEach(job::annotation);
    if (pg.has("priority")) {
      job.priority(integer(pg.get("priority"), role + ".podgroup.priority"));
    }
    if (pg.has("priorityClass")) {
      job.priorityClassName(pg.get("priorityClass").asText());
    }
    if (pg.has("minMember")) {
      job.minMember(integer(pg.get("minMember"), role + ".podgroup.minMember"));
    }
    Instant pgCreated = created(pg, role + ".podgroup");
    if (pgCreated != null) {
      job.created(pgCreated);
    }

    FakeTask task = job.task(name);
    strings(spec.get("labels"), role + ".labels").forEach(task::label);
    strings(spec.get("annotations"), role + ".annotations").forEach(task::annotation);
    JsonNode owner = spec.get("owner");
    if (owner != null) {
      if (owner.isObject()) {
        task.owner(owner.path("kind").asText(), owner.path("name").asText("owner"));
      } else {
        task.owner(owner.asText(), "owner");
      }
    }
    if (spec.has("priority")) {
      task.priority(integer(spec.get("priority"), role + ".priority"));
    }
    if (spec.has("priorityClass")) {
      task.priorityClassName(spec.get("priorityClass").asText());
    }
    if (spec.has("request")) {
      task.requests(pairs(spec.get("request"), role + ".request"));
    }
    TaskStatus status = role.equals("candidate") ? TaskStatus.RUNNING : TaskStatus.PENDING;
    if (spec.has("status")) {
      try {
        status = TaskStatus.valueOf(spec.get("status").asText().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new CaseException(role + ".status: unknown status " + spec.get("status").asText());
      }
    }
    task.status(status);
    Instant created = created(spec, role);
    if (created != null) {
      task.created(created);
    }
    return task;
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

  private static String[] pairs(JsonNode map, String where) {
    if (!map.isObject()) {
      throw new CaseException(where + ": expected a map of resource: quantity");
    }
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, JsonNode> e : map.properties()) {
      out.add(e.getKey());
      out.add(e.getValue().asText());
    }
    return out.toArray(new String[0]);
  }

  private static Map<String, String> strings(JsonNode map, String where) {
    if (map == null) {
      return Map.of();
    }
    if (!map.isObject()) {
      throw new CaseException(where + ": expected a map of strings");
    }
    Map<String, String> out = new java.util.LinkedHashMap<>();
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
