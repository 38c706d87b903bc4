package dev.caldera.plugins.policy;

import dev.caldera.api.ClusterInfo;
import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.Session;
import dev.caldera.api.extension.EvictionRule;
import dev.caldera.api.extension.PreemptiveFn;
import dev.caldera.api.extension.ReclaimableFn;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.info.Blocker;
import dev.caldera.api.info.JobInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.dsl.CompileResult;
import dev.caldera.dsl.Decision;
import dev.caldera.dsl.Policy;
import dev.caldera.dsl.PolicyContext;
import dev.caldera.dsl.PolicyLibrary;
import dev.caldera.dsl.ReportedErrors;
import dev.caldera.dsl.SessionPolicyContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs the compiled reclaim policies the conf names: their reclaim rules become this tier's
 * ReclaimableFn and their preemptive rules its PreemptiveFn. With several policies a candidate must
 * be allowed by each, and a queue must be allowed by each.
 *
 * <p>Policy sources come with the session ({@code session.cluster().policies()}). A file with
 * errors is reported once per text as a {@code Warning} event {@code PolicyError} on the object
 * {@code Policy/<file>}, and its last good version keeps running. A named policy that no valid file
 * declares is an unmet requirement: scheduling holds, as for a missing plugin, until it exists.
 *
 * <p>A policy listed as {@code {name: NAME, audit: true}} runs beside the enforced ones and decides
 * nothing; see {@link PolicyAudit}.
 *
 * <p>With {@code debug: true}, every candidate a policy decides on gets a {@code Normal} event on
 * its pod naming the deciding rule with file and line: {@code PolicySpared} when a policy denied
 * it, {@code PolicyEvicted} when the policies allowed it and the session evicted it.
 */
public final class PolicyPlugin implements Plugin {

  /** The registration name. */
  public static final String NAME = "policy";

  /** The event object kind for policy files and names. */
  static final String EVENT_KIND = "Policy";

  private final PolicyArguments arguments;
  private final PolicyLibrary library;
  private final ReportedErrors reported;
  private final AuditCounts auditCounts;
  private PolicyLibrary.Snapshot snapshot;
  private List<CompileResult> newErrors;
  private DecisionLog decisions;
  private PolicyAudit audit;

  PolicyPlugin(
      PolicyArguments arguments,
      PolicyLibrary library,
      ReportedErrors reported,
      AuditCounts auditCounts) {
    this.arguments = arguments;
    this.library = library;
    this.reported = reported;
    this.auditCounts = auditCounts;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<String> unmetRequirements(ClusterInfo cluster) {
    PolicyLibrary.Snapshot snapshot = library(cluster);
    List<String> unmet = new ArrayList<>();
    for (String name : arguments.policies()) {
      if (!snapshot.policies().containsKey(name)) {
        unmet.add(
            "policy \""
                + name
                + "\" is named in the arguments but no valid .policy file declares it"
                + snapshot.errorsOf(name));
      }
    }
    return unmet;
  }

  /**
   * The library as of this session's sources, refreshed once per session, with the errors not
   * reported before.
   */
  private PolicyLibrary.Snapshot library(ClusterInfo cluster) {
    if (snapshot == null) {
      snapshot = library.refresh(cluster.policies());
      newErrors = reported.firstReports(snapshot.errors());
    }
    return snapshot;
  }

  @Override
  public void onSessionOpen(Session session, Extensions extensions) {
    PolicyLibrary.Snapshot snapshot = library(session.cluster());
    for (CompileResult r : newErrors) {
      session.recordEvent(
          EVENT_KIND,
          r.fileName(),
          "Warning",
          "PolicyError",
          r.render().strip()
              + (r.policyName() != null && snapshot.policies().containsKey(r.policyName())
                  ? "\nthe last good version of policy " + r.policyName() + " keeps running"
                  : ""));
    }
    List<Policy> selected = new ArrayList<>();
    for (String name : arguments.policies()) {
      Policy p = snapshot.policies().get(name);
      if (p == null) {
        throw new IllegalStateException(
            "policy " + name + " is missing: the framework asks unmetRequirements before opening");
      }
      selected.add(p);
    }
    SessionPolicyContext context = new SessionPolicyContext(session);
    List<ReclaimableFn> reclaim = new ArrayList<>();
    List<PreemptiveFn> preemptive = new ArrayList<>();
    boolean tracksAllocation = false;
    for (Policy p : selected) {
      if (p.hasReclaim()) {
        reclaim.add(p.reclaimable(context));
      }
      if (p.hasPreemptive()) {
        preemptive.add(p.preemptive(context));
      }
      tracksAllocation |= p.usesQueueAllocation();
    }
    if (tracksAllocation) {
      extensions.add(ExtensionPoint.EVENT_HANDLER, context.eventHandler());
    }
    ReclaimableFn reclaimable =
        reclaim.size() == 1
            ? reclaim.get(0)
            : (reclaimer, candidates) -> all(reclaim, reclaimer, candidates);
    PreemptiveFn preempt =
        preemptive.isEmpty()
            ? null
            : preemptive.size() == 1
                ? preemptive.get(0)
                : (queue, tasks) -> preemptive.stream().allMatch(fn -> fn.test(queue, tasks));
    List<Policy> audited = audited(session, snapshot);
    if (!audited.isEmpty()) {
      audited.forEach(p -> auditCounts.audited(p.name()));
      audit = new PolicyAudit(selected, audited, context, auditCounts);
      ReclaimableFn enforced = reclaimable;
      reclaimable =
          (reclaimer, candidates) -> {
            Victims chosen = enforced.select(reclaimer, candidates);
            audit.reclaim(reclaimer, candidates, chosen);
            return chosen;
          };
      if (preempt != null) {
        PreemptiveFn enforcedPreempt = preempt;
        preempt =
            (queue, tasks) -> {
              boolean allowed = enforcedPreempt.test(queue, tasks);
              audit.preemptive(queue, tasks, allowed);
              return allowed;
            };
      }
    }
    if (!reclaim.isEmpty() && arguments.debug()) {
      decisions = new DecisionLog(selected.stream().filter(Policy::hasReclaim).toList(), context);
      extensions.add(ExtensionPoint.EVENT_HANDLER, decisions);
      ReclaimableFn decide = reclaimable;
      reclaimable =
          (reclaimer, candidates) -> {
            decisions.explain(reclaimer, candidates);
            return decide.select(reclaimer, candidates);
          };
    }
    if (!reclaim.isEmpty()) {
      List<Policy> reclaiming = selected.stream().filter(Policy::hasReclaim).toList();
      ReclaimableFn decide = reclaimable;
      extensions.add(
          ExtensionPoint.RECLAIMABLE,
          new Reclaim() {
            @Override
            public Victims select(TaskInfo reclaimer, List<TaskInfo> candidates) {
              Victims victims = decide.select(reclaimer, candidates);
              if (!candidates.isEmpty() && (victims == null || victims.tasks().isEmpty())) {
                reportDenial(session, context, reclaiming, reclaimer, candidates);
              }
              return victims;
            }

            @Override
            public String rule(TaskInfo reclaimer, TaskInfo victim) {
              return allowingRules(reclaiming, context, reclaimer, victim);
            }
          });
    }
    if (preempt != null) {
      extensions.add(ExtensionPoint.PREEMPTIVE, preempt);
    }
  }

  /**
   * The policies in audit mode that a valid file declares; one missing is a warning on every
   * session (it decides nothing, so scheduling does not wait for it).
   */
  private List<Policy> audited(Session session, PolicyLibrary.Snapshot snapshot) {
    List<Policy> audited = new ArrayList<>();
    for (String name : arguments.audits()) {
      Policy p = snapshot.policies().get(name);
      if (p == null) {
        session.recordEvent(
            EVENT_KIND,
            name,
            "Warning",
            "PolicyAuditMissing",
            "policy \""
                + name
                + "\" is audited in the arguments but no valid .policy file declares it"
                + snapshot.errorsOf(name));
      } else {
        audited.add(p);
      }
    }
    return audited;
  }

  @Override
  public void onSessionClose(Session session) {
    if (decisions != null) {
      decisions.record(session);
    }
    if (audit != null) {
      audit.record(session);
    }
  }

  /**
   * Names the rule (file:line) that denied the first candidate to {@code reclaimer} as the blocker
   * of the reclaimer's job, with the count of candidates each denying rule refused.
   */
  private static void reportDenial(
      Session session,
      SessionPolicyContext context,
      List<Policy> policies,
      TaskInfo reclaimer,
      List<TaskInfo> candidates) {
    JobInfo job = session.job(reclaimer.jobId());
    if (job == null) {
      return;
    }
    Decision first = null;
    Map<String, Integer> byRule = new TreeMap<>();
    for (TaskInfo candidate : candidates) {
      for (Policy p : policies) {
        Decision d = p.explainReclaim(context, reclaimer, candidate);
        if (!d.allowed()) {
          first = first == null ? d : first;
          byRule.merge(d.file() + ":" + d.line() + " (" + d.rule() + ")", 1, Integer::sum);
          break;
        }
      }
    }
    if (first == null) {
      return;
    }
    session.reportBlocker(
        job,
        new Blocker(
            Blocker.Stage.RECLAIM_POLICY,
            "",
            "",
            "reclaim for task "
                + reclaimer.name()
                + " denied by "
                + first.file()
                + ":"
                + first.line()
                + " ("
                + first.rule()
                + "), e.g. for victim "
                + candidates.get(0).key()
                + "; "
                + byRule.values().stream().mapToInt(Integer::intValue).sum()
                + " of "
                + candidates.size()
                + " candidates denied",
            List.of(),
            byRule));
  }

  /** The policies' reclaim function, which also names the rules behind each eviction. */
  private interface Reclaim extends ReclaimableFn, EvictionRule {}

  /**
   * The rule of each policy that allowed {@code victim} to {@code reclaimer} ({@code
   * tidal.policy:18 (any may reclaim training)}), asked once per eviction.
   */
  static String allowingRules(
      List<Policy> policies, PolicyContext context, TaskInfo reclaimer, TaskInfo victim) {
    List<String> rules = new ArrayList<>();
    for (Decision d : DecisionLog.reclaimDecisions(policies, context, reclaimer, victim)) {
      if (d.allowed()) {
        rules.add(d.file() + ":" + d.line() + " (" + d.rule() + ")");
      }
    }
    return String.join("; ", rules);
  }

  /** The candidates every policy allows, in the order given. */
  private static Victims all(
      List<ReclaimableFn> fns, TaskInfo reclaimer, List<TaskInfo> candidates) {
    Victims victims = null;
    List<TaskInfo> remaining = candidates;
    for (ReclaimableFn fn : fns) {
      victims = fn.select(reclaimer, remaining);
      if (victims.tasks().isEmpty()) {
        return victims;
      }
      remaining = victims.tasks();
    }
    return victims;
  }
}
