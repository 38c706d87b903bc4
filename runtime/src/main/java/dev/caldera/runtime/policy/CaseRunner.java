package dev.caldera.runtime.policy;

import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.dsl.Decision;
import dev.caldera.dsl.Policy;
import dev.caldera.dsl.SessionPolicyContext;
import java.util.List;

/**
 * Runs cases against a compiled policy. Each case is decided twice, by the compiled function the
 * scheduler uses and by {@link Policy#explainReclaim}/{@link Policy#explainPreemptive}; the two
 * must agree, and the verdict (and the deciding line, when the case names one) must be as expected.
 */
public final class CaseRunner {

  /**
   * A case's outcome.
   *
   * @param problem why it failed, or null when it passed
   */
  public record Result(PolicyCase c, Decision decision, String problem) {

    public boolean passed() {
      return problem == null;
    }
  }

  private CaseRunner() {}

  /** Runs one case; a case the policy cannot answer (no such block) fails. */
  public static Result run(Policy policy, PolicyCase c) {
    if (c.isReclaim() ? !policy.hasReclaim() : !policy.hasPreemptive()) {
      return new Result(
          c,
          null,
          "policy "
              + policy.name()
              + " has no "
              + (c.isReclaim() ? "reclaim" : "preemptive")
              + " block");
    }
    CaseWorld world = new CaseWorld(c.now(), c.queues());
    Decision decision;
    boolean compiled;
    if (c.isReclaim()) {
      CaseWorld.TaskRef reclaimerRef = world.task("reclaimer", c.reclaimer());
      CaseWorld.TaskRef candidateRef = world.task("candidate", c.candidate());
      SessionPolicyContext context = world.context();
      TaskInfo reclaimer = world.view(reclaimerRef);
      TaskInfo candidate = world.view(candidateRef);
      decision = policy.explainReclaim(context, reclaimer, candidate);
      compiled =
          !policy.reclaimable(context).select(reclaimer, List.of(candidate)).tasks().isEmpty();
    } else {
      world.addQueue(c.queue());
      CaseWorld.TaskRef taskRef = world.task("task", c.task());
      SessionPolicyContext context = world.context();
      QueueInfo queue = world.queue(c.queue());
      TaskInfo task = world.view(taskRef);
      decision = policy.explainPreemptive(context, queue, task);
      compiled = policy.preemptive(context).test(queue, List.of(task));
    }
    String problem = null;
    if (compiled != decision.allowed()) {
      problem = "the compiled function and the explanation disagree (a bug in Caldera)";
    } else if (decision.allowed() != c.expectAllow()) {
      problem = "expected " + verdict(c.expectAllow()) + ", got " + verdict(decision.allowed());
    } else if (c.line() != null && c.line() != decision.line()) {
      problem = "expected the rule at line " + c.line() + " to decide";
    }
    return new Result(c, decision, problem);
  }

  private static String verdict(boolean allow) {
    return allow ? "allow" : "deny";
  }
}
