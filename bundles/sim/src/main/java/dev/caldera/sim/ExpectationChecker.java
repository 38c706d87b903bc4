package dev.caldera.sim;

import dev.caldera.admission.Admission;
import dev.caldera.api.extension.VolumeBinding;
import dev.caldera.api.model.Pod;
import dev.caldera.api.resource.Quantity;
import dev.caldera.framework.SessionResult;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Compares a run with its scenario's {@code expect:}. Each mismatch is one line such as {@code bind
 * ns1/p2: expected n1, got nothing}.
 */
public final class ExpectationChecker {

  private ExpectationChecker() {}

  /** The mismatches, in the order of the format's keys; empty when all hold or none are given. */
  public static List<String> check(Scenario scenario, ScenarioReport report) {
    Expectations e = scenario.expect();
    List<String> out = new ArrayList<>();
    if (e == null) {
      return out;
    }
    Map<String, String> bound = new HashMap<>();
    Map<String, String> settled = new HashMap<>();
    int binds = 0;
    List<String> evicted = new ArrayList<>();
    List<SessionResult.Event> events = new ArrayList<>();
    for (SessionReport s : report.sessions()) {
      for (SessionResult.Bind b : s.binds()) {
        bound.put(b.pod(), b.node());
        binds++;
        for (VolumeBinding v : b.volumes()) {
          settled.put(v.claim(), v.provision() ? Expectations.PROVISION : v.volume());
        }
      }
      s.evictions().forEach(x -> evicted.add(x.pod()));
      events.addAll(s.events());
    }
    if (e.bind() != null) {
      e.bind()
          .forEach(
              (pod, node) -> {
                String got = bound.get(pod);
                if (!node.equals(got)) {
                  out.add("bind " + pod + ": expected " + node + ", got " + orNothing(got));
                }
              });
    }
    if (e.volumes() != null) {
      e.volumes()
          .forEach(
              (claim, volume) -> {
                String got = settled.get(claim);
                if (!volume.equals(got)) {
                  out.add("volumes " + claim + ": expected " + volume + ", got " + orNothing(got));
                }
              });
    }
    if (e.bindCount() != null && e.bindCount() != binds) {
      out.add("bindCount: expected " + e.bindCount() + ", got " + binds);
    }
    if (e.evict() != null) {
      List<String> want = e.evict().stream().sorted().toList();
      List<String> got = evicted.stream().sorted().toList();
      if (!want.equals(got)) {
        out.add("evict: expected " + want + ", got " + got);
      }
    }
    if (e.evictCount() != null && e.evictCount() != evicted.size()) {
      out.add("evictCount: expected " + e.evictCount() + ", got " + evicted.size());
    }
    if (e.pipelined() != null) {
      checkPipelined(scenario, report, e.pipelined(), out);
    }
    if (e.podGroupPhase() != null) {
      e.podGroupPhase()
          .forEach(
              (pg, phase) -> {
                String got = report.podGroupPhases().get(pg);
                if (!phase.equals(got)) {
                  out.add(
                      "podGroupPhase " + pg + ": expected " + phase + ", got " + orNothing(got));
                }
              });
    }
    if (e.queueAllocated() != null) {
      e.queueAllocated().forEach((q, want) -> checkAllocated(q, want, report, out));
    }
    if (e.events() != null) {
      for (Expectations.EventExpectation want : e.events()) {
        if (events.stream().noneMatch(ev -> matches(want, ev))) {
          out.add("events: no event " + describe(want) + " among " + events.size() + " recorded");
        }
      }
    }
    if (e.noEvents() != null) {
      for (Expectations.EventExpectation unwanted : e.noEvents()) {
        events.stream()
            .filter(ev -> matches(unwanted, ev))
            .findFirst()
            .ifPresent(
                ev ->
                    out.add(
                        "noEvents: an event "
                            + describe(unwanted)
                            + " was recorded: "
                            + ev.reason()
                            + " on "
                            + ev.object()
                            + ": "
                            + ev.message()));
      }
    }
    return out;
  }

  /**
   * Volcano's {@code CheckPipelined}: the group has at least one task pipelined in the last session
   * and every one sits on a listed node; also every listed node holds one of them.
   */
  private static void checkPipelined(
      Scenario scenario,
      ScenarioReport report,
      Map<String, List<String>> expected,
      List<String> out) {
    Map<String, String> groupOf = new HashMap<>();
    // The admitted objects: a pod without a group is in its implicit one only after admission.
    for (Pod p : scenario.cluster().state().pods()) {
      String g = p.metadata().annotations().get(Admission.GROUP_ANNOTATION);
      if (g != null) {
        groupOf.put(p.key(), p.namespace() + "/" + g);
      }
    }
    List<SessionResult.Pipelined> last =
        report.sessions().isEmpty()
            ? List.of()
            : report.sessions().get(report.sessions().size() - 1).pipelined();
    expected.forEach(
        (group, nodes) -> {
          List<String> got = new ArrayList<>();
          for (SessionResult.Pipelined p : last) {
            if (group.equals(groupOf.get(p.pod()))) {
              got.add(p.node());
            }
          }
          Set<String> listed = new LinkedHashSet<>(nodes);
          boolean ok =
              !got.isEmpty()
                  && listed.containsAll(got)
                  && new LinkedHashSet<>(got).containsAll(listed);
          if (!ok) {
            out.add(
                "pipelined "
                    + group
                    + ": expected "
                    + nodes
                    + ", got "
                    + (got.isEmpty() ? "nothing" : got.toString()));
          }
        });
  }

  private static void checkAllocated(
      String queue, Map<String, Quantity> want, ScenarioReport report, List<String> out) {
    Map<String, Quantity> got = report.queueAllocated().get(queue);
    if (got == null) {
      out.add(
          "queueAllocated "
              + queue
              + ": expected "
              + format(want)
              + ", got nothing (no such queue)");
      return;
    }
    want.forEach(
        (resource, q) -> {
          Quantity actual = got.get(resource);
          BigDecimal a = actual == null ? BigDecimal.ZERO : actual.amount();
          if (a.compareTo(q.amount()) != 0) {
            out.add(
                "queueAllocated "
                    + queue
                    + " "
                    + resource
                    + ": expected "
                    + q
                    + ", got "
                    + (actual == null ? "nothing" : actual.toString()));
          }
        });
  }

  private static boolean matches(Expectations.EventExpectation want, SessionResult.Event ev) {
    return (want.object() == null || want.object().equals(ev.object()))
        && (want.reason() == null || want.reason().equals(ev.reason()))
        && ev.message() != null
        && ev.message().contains(want.message());
  }

  private static String describe(Expectations.EventExpectation want) {
    StringBuilder sb = new StringBuilder("{");
    if (want.object() != null) {
      sb.append("object: ").append(want.object()).append(", ");
    }
    if (want.reason() != null) {
      sb.append("reason: ").append(want.reason()).append(", ");
    }
    return sb.append("message containing \"").append(want.message()).append("\"}").toString();
  }

  private static String format(Map<String, Quantity> resources) {
    return resources.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .map(x -> x.getKey() + ": " + x.getValue())
        .collect(Collectors.joining(", ", "{", "}"));
  }

  private static String orNothing(String s) {
    return s == null ? "nothing" : s;
  }
}
