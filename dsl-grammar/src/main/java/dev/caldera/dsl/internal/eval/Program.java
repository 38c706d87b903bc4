package dev.caldera.dsl.internal.eval;

import dev.caldera.dsl.PolicyContext;
import java.util.List;

/**
 * A compiled policy: its classifiers (one per slot that has classes) and its rules, each a single
 * boolean evaluator that tests the class patterns and then the {@code when} condition.
 */
public final class Program {

  /**
   * One compiled rule.
   *
   * @param subject the class the reclaimer (or preemptive task) must have, or null for any
   * @param object the class the reclaimee must have, or null for any (always null in preemptive)
   * @param when the condition, or null
   * @param line where the rule is written
   * @param text the rule as the formatter prints it
   */
  public record Rule(
      ClassTest subject, ClassTest object, BoolNode when, boolean allow, int line, String text) {}

  /** A class pattern: the class {@code index} of classifier {@code classifier}. */
  public record ClassTest(int classifier, int index) {}

  /**
   * A compiled rule block.
   *
   * @param otherwiseLine where {@code otherwise} is written
   */
  public record Block(List<Rule> rules, boolean otherwise, int otherwiseLine) {
    public Block {
      rules = List.copyOf(rules);
    }
  }

  private final String name;
  private final String file;
  private final ClassifierEval[][] classifiers;
  private final String[] classifierNames;
  private final Rule[] reclaim;
  private final Block reclaimBlock;
  private final Rule[] preemptive;
  private final Block preemptiveBlock;
  private final boolean usesAllocation;

  /**
   * When every class pattern of the reclaim rules names one classifier (or none): that classifier
   * (-1 for none), and per reclaimer class, per reclaimee class, the rules whose patterns match, in
   * order. Null when patterns use several classifiers.
   */
  private final int reclaimClassifier;

  private final int[][][] reclaimTable;

  /**
   * Beside {@link #reclaimTable}: per reclaimer class, per reclaimee class, {@link #ALLOW} or
   * {@link #DENY} when the first applicable rule has no condition (or none applies, so {@code
   * otherwise} decides), else {@link #EVALUATE}.
   */
  private final int[][] reclaimFixed;

  /** Per reclaimer class, the decision shared by every reclaimee class, or {@link #EVALUATE}. */
  private final int[] reclaimRowFixed;

  /**
   * Beside {@link #reclaimFixed}, for the pairs it says {@link #EVALUATE}: the condition of the
   * first applicable rule, the decision when it holds, and when it does not, the decision of the
   * rules after it ({@link #EVALUATE} when that again depends on a condition). Spares the rule loop
   * for the common shape "one conditional rule per class pair".
   */
  private final BoolNode[][] reclaimCondition;

  private final int[][] reclaimOnTrue;
  private final int[][] reclaimOnFalse;

  private final int preemptiveClassifier;
  private final int[][] preemptiveTable;

  /** The generated decision for the shape {@link #reclaimTable} serves; null for other shapes. */
  private final ReclaimDecider reclaimDecider;

  /**
   * @param classifiers per slot ({@link Frame#SUBJECT}, {@link Frame#OBJECT}), per classifier
   * @param reclaimBlock null when the policy has no reclaim block
   * @param preemptiveBlock null when the policy has no preemptive block
   */
  public Program(
      String name,
      String file,
      ClassifierEval[][] classifiers,
      String[] classifierNames,
      Block reclaimBlock,
      Block preemptiveBlock,
      boolean usesAllocation) {
    this.name = name;
    this.file = file;
    this.classifiers = classifiers.clone();
    this.classifierNames = classifierNames.clone();
    this.reclaimBlock = reclaimBlock;
    this.preemptiveBlock = preemptiveBlock;
    this.reclaim = reclaimBlock == null ? new Rule[0] : reclaimBlock.rules().toArray(new Rule[0]);
    this.preemptive =
        preemptiveBlock == null ? new Rule[0] : preemptiveBlock.rules().toArray(new Rule[0]);
    this.usesAllocation = usesAllocation;
    this.reclaimClassifier = soleClassifier(reclaim);
    this.reclaimTable =
        reclaimClassifier == MIXED || !tableFits(reclaimClassifier, true, reclaim.length)
            ? null
            : reclaimTable();
    this.reclaimFixed = reclaimTable == null ? null : reclaimFixed();
    this.reclaimRowFixed = reclaimTable == null ? null : reclaimRowFixed(reclaimFixed);
    int n = reclaimTable == null ? 0 : reclaimTable.length;
    this.reclaimCondition = new BoolNode[n][n];
    this.reclaimOnTrue = new int[n][n];
    this.reclaimOnFalse = new int[n][n];
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        if (reclaimFixed[a][b] == EVALUATE) {
          int[] rules = reclaimTable[a][b];
          Rule head = reclaim[rules[0]];
          reclaimCondition[a][b] = head.when();
          reclaimOnTrue[a][b] = head.allow() ? ALLOW : DENY;
          reclaimOnFalse[a][b] = fixedDecision(rules, 1);
        }
      }
    }
    this.reclaimDecider =
        reclaimTable == null || reclaimBlock == null
            ? null
            : DeciderGenerator.generate(
                reclaimClassifier < 0 ? null : classifiers[Frame.OBJECT][reclaimClassifier],
                reclaim,
                reclaimTable,
                reclaimBlock.otherwise());
    this.preemptiveClassifier = soleClassifier(preemptive);
    this.preemptiveTable =
        preemptiveClassifier == MIXED || !tableFits(preemptiveClassifier, false, preemptive.length)
            ? null
            : preemptiveTable();
  }

  private static final int MIXED = -2;

  /**
   * The most cells (class pairs, or classes, times rules) a rule table may take to build. The
   * tables only save time per decision; beyond this a policy's rules are tried in order, which
   * costs the same as the table's build once, so compiling stays linear in the file (a classifier
   * may declare tens of thousands of classes within the file size limit).
   */
  static final long MAX_TABLE_CELLS = 1L << 20;

  private boolean tableFits(int classifier, boolean pairs, int rules) {
    long n = classCount(classifier);
    long cells = pairs ? n * n : n;
    return cells * Math.max(1, rules) <= MAX_TABLE_CELLS;
  }

  /** The one classifier the rules' patterns name, -1 for none, {@link #MIXED} for several. */
  private static int soleClassifier(Rule[] rules) {
    int c = -1;
    for (Rule r : rules) {
      for (ClassTest t : new ClassTest[] {r.subject(), r.object()}) {
        if (t != null) {
          if (c >= 0 && c != t.classifier()) {
            return MIXED;
          }
          c = t.classifier();
        }
      }
    }
    return c;
  }

  private int classCount(int classifier) {
    return classifier < 0 ? 1 : classifiers[Frame.SUBJECT][classifier].classCount();
  }

  private static boolean matches(ClassTest t, int k) {
    return t == null || t.index() == k;
  }

  private int[][][] reclaimTable() {
    int n = classCount(reclaimClassifier);
    int[][][] table = new int[n][n][];
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        List<Integer> rules = new java.util.ArrayList<>();
        for (int i = 0; i < reclaim.length; i++) {
          if (matches(reclaim[i].subject(), a) && matches(reclaim[i].object(), b)) {
            rules.add(i);
          }
        }
        table[a][b] = rules.stream().mapToInt(Integer::intValue).toArray();
      }
    }
    return table;
  }

  static final int DENY = 0;
  static final int ALLOW = 1;
  static final int EVALUATE = -1;

  private int[][] reclaimFixed() {
    int[][] fixed = new int[reclaimTable.length][];
    for (int a = 0; a < fixed.length; a++) {
      fixed[a] = new int[reclaimTable[a].length];
      for (int b = 0; b < fixed[a].length; b++) {
        fixed[a][b] = fixedDecision(reclaimTable[a][b], 0);
      }
    }
    return fixed;
  }

  /**
   * The decision of {@code rules} from position {@code from} on, when it needs no condition: the
   * first rule's if it has none, {@code otherwise} when no rule is left; else {@link #EVALUATE}.
   */
  private int fixedDecision(int[] rules, int from) {
    if (from >= rules.length) {
      return reclaimBlock != null && reclaimBlock.otherwise() ? ALLOW : DENY;
    }
    Rule r = reclaim[rules[from]];
    return r.when() != null ? EVALUATE : r.allow() ? ALLOW : DENY;
  }

  private static int[] reclaimRowFixed(int[][] fixed) {
    int[] out = new int[fixed.length];
    for (int a = 0; a < fixed.length; a++) {
      int d = fixed[a].length == 0 ? EVALUATE : fixed[a][0];
      for (int b = 1; b < fixed[a].length && d != EVALUATE; b++) {
        if (fixed[a][b] != d) {
          d = EVALUATE;
        }
      }
      out[a] = d;
    }
    return out;
  }

  private int[][] preemptiveTable() {
    int n = classCount(preemptiveClassifier);
    int[][] table = new int[n][];
    for (int a = 0; a < n; a++) {
      List<Integer> rules = new java.util.ArrayList<>();
      for (int i = 0; i < preemptive.length; i++) {
        if (matches(preemptive[i].subject(), a)) {
          rules.add(i);
        }
      }
      table[a] = rules.stream().mapToInt(Integer::intValue).toArray();
    }
    return table;
  }

  public String name() {
    return name;
  }

  public String file() {
    return file;
  }

  public Block reclaimBlock() {
    return reclaimBlock;
  }

  public Block preemptiveBlock() {
    return preemptiveBlock;
  }

  public boolean usesAllocation() {
    return usesAllocation;
  }

  public int classifierCount() {
    return classifierNames.length;
  }

  public String classifierName(int c) {
    return classifierNames[c];
  }

  public ClassifierEval classifier(int slot, int c) {
    return classifiers[slot][c];
  }

  /** A frame for evaluating this program against {@code context}. */
  public Frame frame(PolicyContext context) {
    return new Frame(context, this);
  }

  /** The index of the reclaim rule that decides the frame's pair, or -1 for otherwise. */
  public int decideReclaim(Frame f) {
    if (reclaimTable != null) {
      int a = reclaimClassifier < 0 ? 0 : f.classOf(Frame.SUBJECT, reclaimClassifier);
      int b = reclaimClassifier < 0 ? 0 : f.classOf(Frame.OBJECT, reclaimClassifier);
      return first(reclaim, reclaimTable[a][b], f);
    }
    for (int i = 0; i < reclaim.length; i++) {
      Rule r = reclaim[i];
      if (is(f, Frame.SUBJECT, r.subject())
          && is(f, Frame.OBJECT, r.object())
          && (r.when() == null || r.when().eval(f))) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The reclaim rules that may apply to the frame's reclaimer, per reclaimee class, or null when
   * the rules' patterns use several classifiers; see {@link #allowsReclaim(Frame, int[][])}.
   */
  int[][] reclaimRow(Frame f) {
    if (reclaimTable == null) {
      return null;
    }
    return reclaimTable[reclaimClassifier < 0 ? 0 : f.subjectClass(reclaimClassifier)];
  }

  /** The generated reclaim decision, or null when the rules' shape has none. */
  ReclaimDecider reclaimDecider() {
    return reclaimDecider;
  }

  /** The reclaimer's class under the reclaim classifier (0 when the patterns name none). */
  int reclaimerClass(Frame f) {
    return reclaimClassifier < 0 ? 0 : f.subjectClass(reclaimClassifier);
  }

  /**
   * The reclaim classifier when the rules' patterns name exactly one, else -1 (none, or several:
   * see {@link #reclaimRow}).
   */
  int reclaimClassifier() {
    return reclaimTable == null ? -1 : reclaimClassifier;
  }

  /**
   * The precomputed decisions of the frame's reclaimer per reclaimee class ({@link #ALLOW}, {@link
   * #DENY} or {@link #EVALUATE}), or null when the rules' patterns use several classifiers.
   */
  int[] reclaimFixedRow(Frame f) {
    if (reclaimTable == null) {
      return null;
    }
    return reclaimFixed[reclaimClassifier < 0 ? 0 : f.subjectClass(reclaimClassifier)];
  }

  /**
   * The decision the frame's reclaimer gets for every reclaimee, or {@link #EVALUATE} when it
   * depends on the reclaimee (always for mixed classifiers).
   */
  int reclaimRowDecision(Frame f) {
    if (reclaimTable == null) {
      return EVALUATE;
    }
    return reclaimRowFixed[reclaimClassifier < 0 ? 0 : f.subjectClass(reclaimClassifier)];
  }

  /**
   * Per reclaimee class, the condition that decides for the frame's reclaimer; see {@link
   * #reclaimCondition}.
   */
  BoolNode[] reclaimConditionRow(Frame f) {
    return reclaimCondition[reclaimClassifier < 0 ? 0 : f.subjectClass(reclaimClassifier)];
  }

  int[] reclaimOnTrueRow(Frame f) {
    return reclaimOnTrue[reclaimClassifier < 0 ? 0 : f.subjectClass(reclaimClassifier)];
  }

  int[] reclaimOnFalseRow(Frame f) {
    return reclaimOnFalse[reclaimClassifier < 0 ? 0 : f.subjectClass(reclaimClassifier)];
  }

  /**
   * Whether the frame's reclaimer may reclaim the frame's reclaimee, deciding by {@code rules} (its
   * pair's applicable rules) from position {@code from} on.
   */
  boolean evaluateReclaim(Frame f, int[] rules, int from) {
    int i = first(reclaim, rules, from, f);
    return i < 0 ? reclaimBlock.otherwise() : reclaim[i].allow();
  }

  /** As {@link #allowsReclaim(Frame)}, with the reclaimer's row of the rule table. */
  boolean allowsReclaim(Frame f, int[][] row) {
    if (row == null) {
      return allowsReclaim(f);
    }
    int i = first(reclaim, row[reclaimClassifier < 0 ? 0 : f.objectClass(reclaimClassifier)], f);
    return i < 0 ? reclaimBlock.otherwise() : reclaim[i].allow();
  }

  /** Whether the frame's reclaimer may reclaim the frame's reclaimee. */
  public boolean allowsReclaim(Frame f) {
    int i = decideReclaim(f);
    return i < 0 ? reclaimBlock.otherwise() : reclaim[i].allow();
  }

  /** The index of the preemptive rule that decides the frame, or -1 for otherwise. */
  public int decidePreemptive(Frame f) {
    if (preemptiveTable != null) {
      int a = preemptiveClassifier < 0 ? 0 : f.classOf(Frame.SUBJECT, preemptiveClassifier);
      return first(preemptive, preemptiveTable[a], f);
    }
    for (int i = 0; i < preemptive.length; i++) {
      Rule r = preemptive[i];
      if (is(f, Frame.SUBJECT, r.subject()) && (r.when() == null || r.when().eval(f))) {
        return i;
      }
    }
    return -1;
  }

  /** Whether the frame's queue may reclaim for the frame's task. */
  public boolean allowsPreemptive(Frame f) {
    int i = decidePreemptive(f);
    return i < 0 ? preemptiveBlock.otherwise() : preemptive[i].allow();
  }

  /** The first of {@code candidates} whose condition holds, or -1. */
  private static int first(Rule[] rules, int[] candidates, Frame f) {
    return first(rules, candidates, 0, f);
  }

  private static int first(Rule[] rules, int[] candidates, int from, Frame f) {
    for (int j = from; j < candidates.length; j++) {
      int i = candidates[j];
      BoolNode when = rules[i].when();
      if (when == null || when.eval(f)) {
        return i;
      }
    }
    return -1;
  }

  private static boolean is(Frame f, int slot, ClassTest t) {
    return t == null || f.classOf(slot, t.classifier()) == t.index();
  }
}
