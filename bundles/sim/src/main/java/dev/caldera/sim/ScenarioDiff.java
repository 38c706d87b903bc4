package dev.caldera.sim;

import dev.caldera.api.resource.Quantity;
import dev.caldera.framework.SessionResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What changes between two runs of the same cluster (a scenario or a snapshot under two confs or
 * policy sets): where pods end up, which evictions come or go, what queues hold and which phase pod
 * groups reach. Every list is sorted by its key, so the same two runs always give the same diff.
 *
 * @param placements pods whose node after the run differs (null: not bound)
 * @param evictionsAdded evictions of the second run that the first did not make
 * @param evictionsRemoved evictions of the first run that the second does not make
 * @param policyReasons evicted pod of either list → the deciding policy rule in each run, where the
 *     runs recorded it (the policy plugin's {@code debug: true} events)
 * @param queueAllocations per queue and resource, the allocation after the run where it differs
 * @param podGroupPhases pod groups whose phase after the run differs
 */
public record ScenarioDiff(
    List<Placement> placements,
    List<SessionResult.Eviction> evictionsAdded,
    List<SessionResult.Eviction> evictionsRemoved,
    List<Allocation> queueAllocations,
    List<Phase> podGroupPhases,
    Map<String, PolicyReason> policyReasons) {

  /**
   * Why the policies let a pod be evicted or spared it, in each run: the message of the run's
   * {@code PolicyEvicted} or {@code PolicySpared} event on the pod (null: none recorded).
   */
  public record PolicyReason(String before, String after) {}

  /** A pod bound to {@code before} in the first run and to {@code after} in the second. */
  public record Placement(String pod, String before, String after) {}

  /** A queue's allocation of one resource after each run (null: none). */
  public record Allocation(String queue, String resource, Quantity before, Quantity after) {}

  /** A pod group's phase after each run. */
  public record Phase(String podGroup, String before, String after) {}

  public ScenarioDiff {
    placements = List.copyOf(placements);
    evictionsAdded = List.copyOf(evictionsAdded);
    evictionsRemoved = List.copyOf(evictionsRemoved);
    queueAllocations = List.copyOf(queueAllocations);
    podGroupPhases = List.copyOf(podGroupPhases);
    policyReasons = Map.copyOf(policyReasons);
  }

  /** Whether the second run decided anything differently. */
  public boolean changed() {
    return !placements.isEmpty()
        || !evictionsAdded.isEmpty()
        || !evictionsRemoved.isEmpty()
        || !queueAllocations.isEmpty()
        || !podGroupPhases.isEmpty();
  }

  /** The number of differences, one per line of the report. */
  public int size() {
    return placements.size()
        + evictionsAdded.size()
        + evictionsRemoved.size()
        + queueAllocations.size()
        + podGroupPhases.size();
  }

  /** Compares the run {@code after} with the run {@code before}. */
  public static ScenarioDiff between(ScenarioReport before, ScenarioReport after) {
    Map<String, String> nodesBefore = finalNodes(before);
    Map<String, String> nodesAfter = finalNodes(after);
    List<Placement> placements = new ArrayList<>();
    for (String pod : union(nodesBefore.keySet(), nodesAfter.keySet())) {
      String a = nodesBefore.get(pod);
      String b = nodesAfter.get(pod);
      if (!Objects.equals(a, b)) {
        placements.add(new Placement(pod, a, b));
      }
    }

    Map<String, SessionResult.Eviction> evictedBefore = evictions(before);
    Map<String, SessionResult.Eviction> evictedAfter = evictions(after);
    List<SessionResult.Eviction> added = new ArrayList<>();
    List<SessionResult.Eviction> removed = new ArrayList<>();
    evictedAfter.forEach(
        (pod, e) -> {
          if (!evictedBefore.containsKey(pod)) {
            added.add(e);
          }
        });
    evictedBefore.forEach(
        (pod, e) -> {
          if (!evictedAfter.containsKey(pod)) {
            removed.add(e);
          }
        });

    List<Allocation> allocations = new ArrayList<>();
    Map<String, Map<String, Quantity>> qa = before.queueAllocated();
    Map<String, Map<String, Quantity>> qb = after.queueAllocated();
    for (String queue : union(qa.keySet(), qb.keySet())) {
      Map<String, Quantity> ra = qa.getOrDefault(queue, Map.of());
      Map<String, Quantity> rb = qb.getOrDefault(queue, Map.of());
      for (String resource : union(ra.keySet(), rb.keySet())) {
        Quantity a = ra.get(resource);
        Quantity b = rb.get(resource);
        if (!sameAmount(a, b)) {
          allocations.add(new Allocation(queue, resource, a, b));
        }
      }
    }

    List<Phase> phases = new ArrayList<>();
    for (String group : union(before.podGroupPhases().keySet(), after.podGroupPhases().keySet())) {
      String a = before.podGroupPhases().get(group);
      String b = after.podGroupPhases().get(group);
      if (!Objects.equals(a, b)) {
        phases.add(new Phase(group, a, b));
      }
    }
    Map<String, PolicyReason> reasons = new TreeMap<>();
    Map<String, String> decidedBefore = policyDecisions(before);
    Map<String, String> decidedAfter = policyDecisions(after);
    for (List<SessionResult.Eviction> changed : List.of(added, removed)) {
      for (SessionResult.Eviction e : changed) {
        String a = decidedBefore.get(e.pod());
        String b = decidedAfter.get(e.pod());
        if (a != null || b != null) {
          reasons.put(e.pod(), new PolicyReason(a, b));
        }
      }
    }
    return new ScenarioDiff(placements, added, removed, allocations, phases, reasons);
  }

  /** The reasons of the policy plugin's debug events. */
  static final List<String> POLICY_DECISIONS = List.of("PolicyEvicted", "PolicySpared");

  /** Pod → the message of its last policy decision event in the run. */
  private static Map<String, String> policyDecisions(ScenarioReport r) {
    Map<String, String> out = new TreeMap<>();
    for (SessionReport s : r.sessions()) {
      for (SessionResult.Event e : s.events()) {
        if (e.kind().equals("Pod") && POLICY_DECISIONS.contains(e.reason())) {
          out.put(e.object(), e.reason() + ": " + e.message());
        }
      }
    }
    return out;
  }

  /** Pod → the node of its last bind in the run, sorted by pod. */
  private static Map<String, String> finalNodes(ScenarioReport r) {
    Map<String, String> out = new TreeMap<>();
    for (SessionReport s : r.sessions()) {
      for (SessionResult.Bind b : s.binds()) {
        out.put(b.pod(), b.node());
      }
    }
    return out;
  }

  /** Pod → its first eviction in the run, sorted by pod. */
  private static Map<String, SessionResult.Eviction> evictions(ScenarioReport r) {
    Map<String, SessionResult.Eviction> out = new TreeMap<>();
    for (SessionReport s : r.sessions()) {
      for (SessionResult.Eviction e : s.evictions()) {
        out.putIfAbsent(e.pod(), e);
      }
    }
    return out;
  }

  /** A missing quantity is none of the resource. */
  private static boolean sameAmount(Quantity a, Quantity b) {
    if (a == null || b == null) {
      Quantity present = a == null ? b : a;
      return present == null || present.isZero();
    }
    return a.equals(b);
  }

  private static TreeSet<String> union(Iterable<String> a, Iterable<String> b) {
    TreeSet<String> out = new TreeSet<>();
    a.forEach(out::add);
    b.forEach(out::add);
    return out;
  }

  /** The report as a tree for JSON or YAML output. */
  public Map<String, Object> toTree() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("changed", changed());
    out.put(
        "placements",
        placements.stream()
            .map(p -> tree("pod", p.pod(), "before", p.before(), "after", p.after()))
            .toList());
    out.put("evictionsAdded", evictionsAdded.stream().map(this::eviction).toList());
    out.put("evictionsRemoved", evictionsRemoved.stream().map(this::eviction).toList());
    out.put(
        "queueAllocations",
        queueAllocations.stream()
            .map(
                a -> {
                  Map<String, Object> m =
                      tree("queue", a.queue(), "resource", a.resource(), "before", null);
                  m.put("before", amount(a.before()));
                  m.put("after", amount(a.after()));
                  return m;
                })
            .toList());
    out.put(
        "podGroupPhases",
        podGroupPhases.stream()
            .map(p -> tree("podGroup", p.podGroup(), "before", p.before(), "after", p.after()))
            .toList());
    return out;
  }

  /** A quantity as written, none as {@code "0"}. */
  static String amount(Quantity q) {
    return q == null ? "0" : q.toString();
  }

  private Map<String, Object> eviction(SessionResult.Eviction e) {
    Map<String, Object> m = tree("pod", e.pod(), "action", e.action(), "forPod", e.forPod());
    PolicyReason reason = policyReasons.get(e.pod());
    if (reason != null) {
      m.put("policyBefore", reason.before());
      m.put("policyAfter", reason.after());
    }
    return m;
  }

  private static Map<String, Object> tree(
      String k1, Object v1, String k2, Object v2, String k3, Object v3) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(k1, v1);
    m.put(k2, v2);
    m.put(k3, v3);
    return m;
  }
}
