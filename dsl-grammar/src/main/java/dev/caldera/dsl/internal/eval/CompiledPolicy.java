package dev.caldera.dsl.internal.eval;

import dev.caldera.api.extension.EvictionRule;
import dev.caldera.api.extension.PreemptiveFn;
import dev.caldera.api.extension.ReclaimableFn;
import dev.caldera.api.extension.Victims;
import dev.caldera.api.info.QueueInfo;
import dev.caldera.api.info.TaskInfo;
import dev.caldera.dsl.Decision;
import dev.caldera.dsl.Policy;
import dev.caldera.dsl.PolicyContext;
import java.util.ArrayList;
import java.util.List;

/** A {@link Policy} backed by a compiled {@link Program}. */
public final class CompiledPolicy implements Policy {

  private static final Victims NONE = Victims.permit(List.of());

  private final Program program;
  private final Program explainer;

  /** A policy whose explanations name no attribute values. */
  public CompiledPolicy(Program program) {
    this(program, program);
  }

  /**
   * @param explainer the program {@code explain} runs: the same decisions, with attributes that
   *     record what they read
   */
  public CompiledPolicy(Program program, Program explainer) {
    this.program = program;
    this.explainer = explainer;
  }

  private Program explainer() {
    return explainer;
  }

  @Override
  public String name() {
    return program.name();
  }

  @Override
  public String fileName() {
    return program.file();
  }

  @Override
  public boolean hasReclaim() {
    return program.reclaimBlock() != null;
  }

  @Override
  public boolean hasPreemptive() {
    return program.preemptiveBlock() != null;
  }

  @Override
  public boolean usesQueueAllocation() {
    return program.usesAllocation();
  }

  @Override
  public ReclaimableFn reclaimable(PolicyContext context) {
    if (!hasReclaim()) {
      throw new IllegalStateException("policy " + name() + " has no reclaim block");
    }
    ReclaimableFn bound = new BoundReclaimable(program, program.frame(context));
    return new Explained(bound, context);
  }

  /** The bound reclaim rules, which also name the rule that allowed an eviction. */
  private final class Explained implements ReclaimableFn, EvictionRule {
    private final ReclaimableFn bound;
    private final PolicyContext context;

    Explained(ReclaimableFn bound, PolicyContext context) {
      this.bound = bound;
      this.context = context;
    }

    @Override
    public Victims select(TaskInfo reclaimer, List<TaskInfo> candidates) {
      return bound.select(reclaimer, candidates);
    }

    @Override
    public String rule(TaskInfo reclaimer, TaskInfo victim) {
      Decision d = explainReclaim(context, reclaimer, victim);
      return d.allowed() ? d.file() + ":" + d.line() + " (" + d.rule() + ")" : "";
    }
  }

  @Override
  public PreemptiveFn preemptive(PolicyContext context) {
    if (!hasPreemptive()) {
      throw new IllegalStateException("policy " + name() + " has no preemptive block");
    }
    return new BoundPreemptive(program, program.frame(context));
  }

  @Override
  public Decision explainReclaim(PolicyContext context, TaskInfo reclaimer, TaskInfo candidate) {
    if (!hasReclaim()) {
      throw new IllegalStateException("policy " + name() + " has no reclaim block");
    }
    Program p = explainer();
    Frame f = p.frame(context);
    f.recordReads("reclaimer", "reclaimee");
    f.start();
    f.bind(Frame.SUBJECT, reclaimer);
    f.bind(Frame.OBJECT, candidate);
    List<String> classes = new ArrayList<>();
    describeClasses(p, f, Frame.SUBJECT, "reclaimer", classes);
    describeClasses(p, f, Frame.OBJECT, "reclaimee", classes);
    return decision(p, p.reclaimBlock(), p.decideReclaim(f), classes, f.reads());
  }

  @Override
  public Decision explainPreemptive(PolicyContext context, QueueInfo queue, TaskInfo task) {
    if (!hasPreemptive()) {
      throw new IllegalStateException("policy " + name() + " has no preemptive block");
    }
    Program p = explainer();
    Frame f = p.frame(context);
    f.recordReads("task");
    f.start();
    f.bindQueue(queue);
    f.bind(Frame.SUBJECT, task);
    List<String> classes = new ArrayList<>();
    describeClasses(p, f, Frame.SUBJECT, "task", classes);
    return decision(p, p.preemptiveBlock(), p.decidePreemptive(f), classes, f.reads());
  }

  private static Decision decision(
      Program p, Program.Block block, int rule, List<String> classes, List<String> reads) {
    if (rule < 0) {
      return new Decision(
          block.otherwise(),
          p.file(),
          block.otherwiseLine(),
          block.otherwise() ? "otherwise allow" : "otherwise deny",
          classes,
          reads);
    }
    Program.Rule r = block.rules().get(rule);
    return new Decision(r.allow(), p.file(), r.line(), r.text(), classes, reads);
  }

  private static void describeClasses(
      Program program, Frame f, int slot, String role, List<String> out) {
    int[] by = new int[1];
    for (int c = 0; c < program.classifierCount(); c++) {
      ClassifierEval classifier = program.classifier(slot, c);
      int k = classifier.decide(f, by);
      out.add(
          role
              + " "
              + program.classifierName(c)
              + " = "
              + classifier.className(k)
              + " ("
              + classifier.describe(by[0])
              + ", line "
              + classifier.line(by[0])
              + ")");
    }
  }

  /** The reclaim rules bound to one context; reuses one frame, so not thread-safe. */
  private static final class BoundReclaimable implements ReclaimableFn {
    private final Program program;
    private final Frame frame;

    BoundReclaimable(Program program, Frame frame) {
      this.program = program;
      this.frame = frame;
    }

    @Override
    public Victims select(TaskInfo reclaimer, List<TaskInfo> candidates) {
      Frame f = frame;
      f.start();
      f.bind(Frame.SUBJECT, reclaimer);
      int[][] row = program.reclaimRow(f);
      if (row == null) {
        return general(f, candidates);
      }
      int all = program.reclaimRowDecision(f);
      if (all == Program.DENY) {
        return NONE;
      }
      ReclaimDecider decider = program.reclaimDecider();
      if (decider != null) {
        return decided(f, decider, candidates);
      }
      int[] fixed = program.reclaimFixedRow(f);
      BoolNode[] conditions = program.reclaimConditionRow(f);
      int[] onTrue = program.reclaimOnTrueRow(f);
      int[] onFalse = program.reclaimOnFalseRow(f);
      int c = program.reclaimClassifier();
      List<TaskInfo> allowed = null;
      for (int i = 0, n = candidates.size(); i < n; i++) {
        TaskInfo candidate = candidates.get(i);
        boolean allow = all == Program.ALLOW;
        if (!allow) {
          int b;
          if (c < 0) {
            f.bindObject(candidate);
            b = 0;
          } else {
            b = f.bindObjectAndClassify(candidate, c);
          }
          int d = fixed[b];
          if (d == Program.EVALUATE) {
            d = conditions[b].eval(f) ? onTrue[b] : onFalse[b];
            allow =
                d == Program.EVALUATE ? program.evaluateReclaim(f, row[b], 1) : d == Program.ALLOW;
          } else {
            allow = d == Program.ALLOW;
          }
        }
        if (allow) {
          if (allowed == null) {
            allowed = new ArrayList<>(n - i);
          }
          allowed.add(candidate);
        }
      }
      return allowed == null ? NONE : Victims.permit(allowed);
    }

    private Victims decided(Frame f, ReclaimDecider decider, List<TaskInfo> candidates) {
      int a = program.reclaimerClass(f);
      List<TaskInfo> allowed = null;
      for (int i = 0, n = candidates.size(); i < n; i++) {
        TaskInfo candidate = candidates.get(i);
        if (decider.allows(f, a, candidate)) {
          if (allowed == null) {
            allowed = new ArrayList<>(n - i);
          }
          allowed.add(candidate);
        }
      }
      return allowed == null ? NONE : Victims.permit(allowed);
    }

    /** Rules whose patterns use several classifiers: every pair goes through the rules. */
    private Victims general(Frame f, List<TaskInfo> candidates) {
      List<TaskInfo> allowed = null;
      for (int i = 0, n = candidates.size(); i < n; i++) {
        TaskInfo candidate = candidates.get(i);
        f.bindObject(candidate);
        if (program.allowsReclaim(f)) {
          if (allowed == null) {
            allowed = new ArrayList<>(n - i);
          }
          allowed.add(candidate);
        }
      }
      return allowed == null ? NONE : Victims.permit(allowed);
    }
  }

  /** The preemptive rules bound to one context; reuses one frame, so not thread-safe. */
  private static final class BoundPreemptive implements PreemptiveFn {
    private final Program program;
    private final Frame frame;

    BoundPreemptive(Program program, Frame frame) {
      this.program = program;
      this.frame = frame;
    }

    @Override
    public boolean test(QueueInfo queue, List<TaskInfo> tasks) {
      Frame f = frame;
      f.start();
      f.bindQueue(queue);
      if (tasks.isEmpty()) {
        f.bind(Frame.SUBJECT, null);
        return program.allowsPreemptive(f);
      }
      for (int i = 0, n = tasks.size(); i < n; i++) {
        f.bind(Frame.SUBJECT, tasks.get(i));
        if (!program.allowsPreemptive(f)) {
          return false;
        }
      }
      return true;
    }
  }
}
