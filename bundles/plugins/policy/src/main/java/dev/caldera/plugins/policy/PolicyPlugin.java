package dev.caldera.plugins.policy;

import dev.caldera.api.ExtensionPoint;
import dev.caldera.api.Extensions;
import dev.caldera.api.Plugin;
import dev.caldera.api.Session;
import dev.caldera.api.extension.PreemptiveFn;
import dev.caldera.api.extension.ReclaimableFn;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.extension.Vote;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.dsl.CompileResult;
import dev.caldera.dsl.Policy;
import dev.caldera.dsl.SessionPolicyContext;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the compiled reclaim policies the conf names: their reclaim rules become this tier's
 * ReclaimableFn and their preemptive rules its PreemptiveFn. With several policies a candidate must
 * be allowed by each, and a queue must be allowed by each.
 *
 * <p>Policy sources come with the session ({@code session.cluster().policies()}). A file with
 * errors is reported once per text as a {@code Warning} event {@code PolicyError} on the object
 * {@code Policy/<file>}, and its last good version keeps running. A named policy that does not
 * exist holds scheduling like a missing plugin: the plugin then refuses every job (JobEnqueueable),
 * every allocation (Allocatable) and every reclaim (Preemptive), and records a {@code Warning}
 * event {@code PolicyMissing} on {@code Policy/<name>} each session.
 */
public final class PolicyPlugin implements Plugin {

  /** The registration name. */
  public static final String NAME = "policy";

  /** The event object kind for policy files and names. */
  static final String EVENT_KIND = "Policy";

  private final PolicyArguments arguments;
  private final PolicyLibrary library;

  PolicyPlugin(PolicyArguments arguments, PolicyLibrary library) {
    this.arguments = arguments;
    this.library = library;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void onSessionOpen(Session session, Extensions extensions) {
    PolicyLibrary.Snapshot snapshot = library.refresh(session.cluster().policies());
    for (CompileResult r : snapshot.newErrors()) {
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
    List<String> missing = new ArrayList<>();
    for (String name : arguments.policies()) {
      Policy p = snapshot.policies().get(name);
      if (p == null) {
        missing.add(name);
      } else {
        selected.add(p);
      }
    }
    if (!missing.isEmpty()) {
      hold(session, extensions, missing);
      return;
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
    if (reclaim.size() == 1) {
      extensions.add(ExtensionPoint.RECLAIMABLE, reclaim.get(0));
    } else if (!reclaim.isEmpty()) {
      extensions.add(
          ExtensionPoint.RECLAIMABLE,
          (reclaimer, candidates) -> all(reclaim, reclaimer, candidates));
    }
    if (preemptive.size() == 1) {
      extensions.add(ExtensionPoint.PREEMPTIVE, preemptive.get(0));
    } else if (!preemptive.isEmpty()) {
      extensions.add(
          ExtensionPoint.PREEMPTIVE,
          (queue, tasks) -> preemptive.stream().allMatch(fn -> fn.test(queue, tasks)));
    }
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

  private static void hold(Session session, Extensions extensions, List<String> missing) {
    for (String name : missing) {
      session.recordEvent(
          EVENT_KIND,
          name,
          "Warning",
          "PolicyMissing",
          "policy "
              + name
              + " is named in the conf but no valid .policy file declares it: scheduling is held"
              + " (no job is enqueued or allocated and no queue reclaims) until it exists");
    }
    extensions.add(ExtensionPoint.JOB_ENQUEUEABLE, job -> Vote.REJECT);
    extensions.add(ExtensionPoint.ALLOCATABLE, (queue, task) -> false);
    extensions.add(ExtensionPoint.PREEMPTIVE, (queue, tasks) -> false);
  }
}
