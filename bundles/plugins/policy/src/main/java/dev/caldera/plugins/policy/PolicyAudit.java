package dev.caldera.plugins.policy;

import dev.caldera.api.Session;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.dsl.Decision;
import dev.caldera.dsl.Policy;
import dev.caldera.dsl.PolicyContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Policies in audit mode: each runs beside the enforced ones on every reclaim and preemptive
 * decision and decides nothing; where one would decide otherwise than the enforced policies did, a
 * {@code PolicyAudit} event names both deciding rules (file:line), once per session for each
 * reclaimer and candidate (or queue and task), and {@link AuditCounts} counts it.
 */
final class PolicyAudit {

  static final String REASON = "PolicyAudit";

  private final List<Policy> enforced;
  private final List<Policy> audited;
  private final PolicyContext context;
  private final AuditCounts counts;

  /** Disagreement key → (object kind, object, message), in the order found. */
  private final Map<String, String[]> found = new LinkedHashMap<>();

  PolicyAudit(
      List<Policy> enforced, List<Policy> audited, PolicyContext context, AuditCounts counts) {
    this.enforced = List.copyOf(enforced);
    this.audited = List.copyOf(audited);
    this.context = context;
    this.counts = counts;
  }

  /** Compares each audited policy with what the enforced ones chose among {@code candidates}. */
  void reclaim(TaskInfo reclaimer, List<TaskInfo> candidates, Victims chosen) {
    Set<String> evictable = chosen.tasks().stream().map(TaskInfo::key).collect(Collectors.toSet());
    for (TaskInfo candidate : candidates) {
      boolean allowed = evictable.contains(candidate.key());
      for (Policy p : audited) {
        if (!p.hasReclaim()) {
          continue;
        }
        Decision audit = p.explainReclaim(context, reclaimer, candidate);
        if (audit.allowed() == allowed) {
          continue;
        }
        String key =
            "reclaim\u0000" + p.name() + "\u0000" + reclaimer.key() + "\u0000" + candidate.key();
        if (found.containsKey(key)) {
          continue;
        }
        Decision enforcedDecision = enforcedReclaim(reclaimer, candidate);
        found.put(
            key,
            new String[] {
              "Pod",
              candidate.key(),
              "audit policy "
                  + p.name()
                  + " would "
                  + (audit.allowed() ? "allow" : "deny")
                  + " reclaiming "
                  + candidate.key()
                  + " for "
                  + reclaimer.key()
                  + ": "
                  + rule(audit)
                  + "; enforced: "
                  + (allowed ? "allowed" : "denied")
                  + (enforcedDecision == null ? "" : ", " + rule(enforcedDecision))
            });
        counts.disagreed(p.name());
      }
    }
  }

  /** Compares each audited policy's preemptive rules with the enforced answer for a queue. */
  void preemptive(QueueInfo queue, List<TaskInfo> tasks, boolean allowed) {
    for (Policy p : audited) {
      if (!p.hasPreemptive() || tasks.isEmpty()) {
        continue;
      }
      boolean audit = p.preemptive(context).test(queue, tasks);
      if (audit == allowed) {
        continue;
      }
      TaskInfo first = tasks.get(0);
      String key = "preemptive\u0000" + p.name() + "\u0000" + queue.name() + "\u0000" + first.key();
      if (found.containsKey(key)) {
        continue;
      }
      found.put(
          key,
          new String[] {
            "Queue",
            queue.name(),
            "audit policy "
                + p.name()
                + " would "
                + (audit ? "allow" : "deny")
                + " queue "
                + queue.name()
                + " to preempt for "
                + first.key()
                + ": "
                + rule(p.explainPreemptive(context, queue, first))
                + "; enforced: "
                + (allowed ? "allowed" : "denied")
          });
      counts.disagreed(p.name());
    }
  }

  /** The first enforced policy that denies, else the last that allows. */
  private Decision enforcedReclaim(TaskInfo reclaimer, TaskInfo candidate) {
    List<Decision> decisions =
        DecisionLog.reclaimDecisions(enforced, context, reclaimer, candidate);
    return decisions.isEmpty() ? null : decisions.get(decisions.size() - 1);
  }

  private static String rule(Decision d) {
    return "by " + d.file() + ":" + d.line() + " (" + d.rule() + ")";
  }

  /** Records this session's disagreements as events. */
  void record(Session session) {
    for (String[] f : found.values()) {
      session.recordEvent(f[0], f[1], "Normal", REASON, f[2]);
    }
  }
}
