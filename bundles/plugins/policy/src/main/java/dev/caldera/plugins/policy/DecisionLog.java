package dev.caldera.plugins.policy;

import dev.caldera.api.Session;
import dev.caldera.api.extension.EventHandler;
import dev.caldera.api.extension.Status;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.api.info.TaskStatus;
import dev.caldera.dsl.Decision;
import dev.caldera.dsl.Policy;
import dev.caldera.dsl.PolicyContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code debug: true} record of why reclaim spared or evicted pods: each candidate's deciding
 * rule (first denying policy, else every policy's allowing rule), kept per pod, and written as pod
 * events when the session closes. A pod spared by one reclaimer and evicted for another gets the
 * eviction's reason only. Evictions are seen through the event handler: evict deallocates a task
 * into {@code Releasing}, and a discarded statement allocates it again.
 */
final class DecisionLog implements EventHandler {

  static final String SPARED = "PolicySpared";
  static final String EVICTED = "PolicyEvicted";

  private final List<Policy> policies;
  private final PolicyContext context;
  private final Map<String, String> spared = new LinkedHashMap<>();
  private final Map<String, String> allowed = new LinkedHashMap<>();
  private final Map<String, String> evicted = new LinkedHashMap<>();

  DecisionLog(List<Policy> policies, PolicyContext context) {
    this.policies = List.copyOf(policies);
    this.context = context;
  }

  /** Explains each candidate's decision for {@code reclaimer}. */
  void explain(TaskInfo reclaimer, List<TaskInfo> candidates) {
    for (TaskInfo candidate : candidates) {
      StringBuilder reasons = new StringBuilder();
      boolean allow = true;
      for (Decision d : reclaimDecisions(policies, context, reclaimer, candidate)) {
        if (reasons.length() > 0) {
          reasons.append("; ");
        }
        reasons.append(d.allowed() ? "allowed" : "denied");
        reasons.append(" by ").append(d.file()).append(':').append(d.line());
        reasons.append(" (").append(d.rule()).append(')');
        allow &= d.allowed();
      }
      String message = "policy decision for reclaimer " + reclaimer.key() + ": " + reasons;
      if (allow) {
        allowed.put(candidate.key(), message);
      } else {
        spared.putIfAbsent(candidate.key(), message);
      }
    }
  }

  /**
   * The reclaim decisions of {@code policies} for one pair, in order, up to and including the first
   * denial (which decides; else every policy allowed).
   */
  static List<Decision> reclaimDecisions(
      List<Policy> policies, PolicyContext context, TaskInfo reclaimer, TaskInfo candidate) {
    List<Decision> out = new ArrayList<>();
    for (Policy p : policies) {
      if (!p.hasReclaim()) {
        continue;
      }
      Decision d = p.explainReclaim(context, reclaimer, candidate);
      out.add(d);
      if (!d.allowed()) {
        break;
      }
    }
    return out;
  }

  @Override
  public void deallocated(TaskInfo task) {
    String why = allowed.get(task.key());
    if (why != null && task.status() == TaskStatus.RELEASING) {
      evicted.put(task.key(), why);
    }
  }

  @Override
  public Status allocated(TaskInfo task) {
    evicted.remove(task.key());
    return Status.OK;
  }

  /** Records one event per evicted pod, then one per spared pod that was not evicted. */
  void record(Session session) {
    evicted.forEach((pod, why) -> session.recordEvent("Pod", pod, "Normal", EVICTED, why));
    spared.forEach(
        (pod, why) -> {
          if (!evicted.containsKey(pod)) {
            session.recordEvent("Pod", pod, "Normal", SPARED, why);
          }
        });
  }
}
