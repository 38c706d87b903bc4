package dev.caldera.dsl.internal.check;

import dev.caldera.dsl.internal.eval.BoolNode;
import dev.caldera.dsl.internal.eval.BoolNodes;
import dev.caldera.dsl.internal.eval.ClassifierEval;
import dev.caldera.dsl.internal.eval.Frame;
import dev.caldera.dsl.internal.eval.MapNode;
import dev.caldera.dsl.internal.eval.NumNode;
import dev.caldera.dsl.internal.eval.NumNodes;
import dev.caldera.dsl.internal.eval.Program;
import dev.caldera.dsl.internal.eval.Recorded;
import dev.caldera.dsl.internal.eval.StrNode;
import dev.caldera.dsl.internal.eval.StrNodes;
import dev.caldera.dsl.internal.eval.VecNode;
import dev.caldera.dsl.internal.eval.VecNodes;
import dev.caldera.dsl.internal.lang.Type;
import dev.caldera.dsl.internal.lang.Type.Kind;
import dev.caldera.dsl.internal.tree.ClassPattern;
import dev.caldera.dsl.internal.tree.Classify;
import dev.caldera.dsl.internal.tree.Expr;
import dev.caldera.dsl.internal.tree.Expr.BinaryOp;
import dev.caldera.dsl.internal.tree.Formatter;
import dev.caldera.dsl.internal.tree.Otherwise;
import dev.caldera.dsl.internal.tree.PreemptiveBlock.PreemptiveRule;
import dev.caldera.dsl.internal.tree.ReclaimBlock.ReclaimRule;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a checked policy into evaluators: every attribute becomes its accessor, every class pattern
 * an index test, every rule one boolean node. Compiling cannot fail: the checker has resolved
 * everything.
 */
public final class Compiler {

  private final Checked checked;
  private final boolean recording;
  private int self;
  private boolean inClassifier;

  private Compiler(Checked checked, boolean recording) {
    this.checked = checked;
    this.recording = recording;
  }

  /** The program of {@code checked}, for the file {@code file}. */
  public static Program compile(Checked checked, String file) {
    return new Compiler(checked, false).program(file);
  }

  /**
   * The program of {@code checked} for {@code explain}: the same decisions, and every attribute
   * tells the frame what it read (see {@link Recorded}).
   */
  public static Program compileForExplaining(Checked checked, String file) {
    return new Compiler(checked, true).program(file);
  }

  /** An attribute's evaluator, recording its reads when compiling for explain. */
  private Object attribute(Object node, Expr e, boolean relative) {
    if (!recording) {
      return node;
    }
    return Recorded.wrap(node, Formatter.expression(e), relative && inClassifier ? self : -1);
  }

  private Program program(String file) {
    int n = checked.classifiers().size();
    ClassifierEval[][] classifiers = new ClassifierEval[2][n];
    String[] names = new String[n];
    for (int c = 0; c < n; c++) {
      names[c] = checked.classifiers().get(c).name();
      for (int slot = Frame.SUBJECT; slot <= Frame.OBJECT; slot++) {
        classifiers[slot][c] = classifier(checked.classifiers().get(c), c, slot);
      }
    }
    Program.Block reclaim = null;
    if (checked.reclaim() != null) {
      List<Program.Rule> rules = new ArrayList<>();
      for (ReclaimRule r : checked.reclaim().rules()) {
        rules.add(
            new Program.Rule(
                classTest(r.reclaimer()),
                classTest(r.reclaimee()),
                r.when() == null ? null : bool(r.when()),
                r.allow(),
                r.span().line(),
                Formatter.rule(r)));
      }
      reclaim = block(rules, checked.reclaim().otherwise());
    }
    Program.Block preemptive = null;
    if (checked.preemptive() != null) {
      List<Program.Rule> rules = new ArrayList<>();
      for (PreemptiveRule r : checked.preemptive().rules()) {
        rules.add(
            new Program.Rule(
                r.forClass() == null ? null : classTest(r.forClass()),
                null,
                r.when() == null ? null : bool(r.when()),
                r.allow(),
                r.span().line(),
                Formatter.rule(r)));
      }
      preemptive = block(rules, checked.preemptive().otherwise());
    }
    return new Program(
        checked.file().name(),
        file,
        classifiers,
        names,
        reclaim,
        preemptive,
        checked.usesAllocation());
  }

  private static Program.Block block(List<Program.Rule> rules, Otherwise otherwise) {
    return new Program.Block(rules, otherwise.allow(), otherwise.span().line());
  }

  private ClassifierEval classifier(Classify c, int index, int slot) {
    self = slot;
    inClassifier = true;
    List<Classify.Source> sources = c.sources();
    StrNode[] nodes = new StrNode[sources.size()];
    String[][] keys = new String[sources.size()][];
    int[][] values = new int[sources.size()][];
    for (int i = 0; i < sources.size(); i++) {
      Classify.Source s = sources.get(i);
      nodes[i] = (StrNode) node(s.expr());
      if (s.mapping() != null) {
        keys[i] = new String[s.mapping().size()];
        values[i] = new int[s.mapping().size()];
        for (int j = 0; j < s.mapping().size(); j++) {
          keys[i][j] = s.mapping().get(j).key();
          values[i][j] = checked.classIndex().get(s.mapping().get(j).value().name())[1];
        }
      }
    }
    List<String> classNames = new ArrayList<>();
    for (var e : checked.classIndex().entrySet()) {
      if (e.getValue()[0] == index) {
        classNames.add(e.getKey());
      }
    }
    int otherwise = checked.classIndex().get(c.otherwise().name())[1];
    String[] texts = new String[sources.size()];
    int[] lines = new int[sources.size() + 1];
    for (int i = 0; i < sources.size(); i++) {
      texts[i] = Formatter.expression(sources.get(i).expr());
      lines[i] = sources.get(i).span().line();
    }
    lines[sources.size()] = c.otherwise().span().line();
    return new ClassifierEval(
        nodes, keys, values, classNames.toArray(new String[0]), otherwise, texts, lines);
  }

  private Program.ClassTest classTest(ClassPattern p) {
    if (p.isAny()) {
      return null;
    }
    int[] at = checked.classIndex().get(p.name());
    return new Program.ClassTest(at[0], at[1]);
  }

  private BoolNode bool(Expr e) {
    self = Frame.SUBJECT;
    inClassifier = false;
    return (BoolNode) node(e);
  }

  private int slot(int slot) {
    return slot == Meaning.SELF ? self : slot;
  }

  private Type type(Expr e) {
    return checked.meanings().get(e).type();
  }

  /** The evaluator of {@code e}: a BoolNode, NumNode, StrNode, VecNode or MapNode by its type. */
  private Object node(Expr e) {
    Meaning m = checked.meanings().get(e);
    if (e instanceof Expr.Paren p) {
      return node(p.inner());
    }
    if (m instanceof Meaning.Attribute a) {
      return attribute(a.entity().node(a.name(), slot(a.slot())), e, a.slot() == Meaning.SELF);
    }
    if (m instanceof Meaning.ClassOf c) {
      String[] names = c.type().symbols().toArray(new String[0]);
      return new StrNodes.ClassName(slot(c.slot()), c.classifier(), names);
    }
    if (m instanceof Meaning.TextValue t) {
      return new StrNodes.Const(t.value());
    }
    if (m instanceof Meaning.NumberValue n) {
      return new NumNodes.Const(n.value());
    }
    if (m instanceof Meaning.VectorValue v) {
      return new VecNodes.Const(v.value());
    }
    if (m instanceof Meaning.Dimension d) {
      Expr target = e instanceof Expr.Member mem ? mem.target() : ((Expr.Index) e).target();
      return new NumNodes.Dim((VecNode) node(target), d.dim(), d.scale());
    }
    if (e instanceof Expr.Index i) {
      if (meaningOf(i.target()) instanceof Meaning.Attribute a) {
        StrNode value = a.entity().valueNode(a.name(), slot(a.slot()), i.key());
        if (value != null) {
          return attribute(value, e, a.slot() == Meaning.SELF);
        }
      }
      return new StrNodes.MapKey((MapNode) node(i.target()), i.key());
    }
    if (e instanceof Expr.BoolLit b) {
      return new BoolNodes.Const(b.value());
    }
    if (e instanceof Expr.Exists x) {
      return new BoolNodes.Exists((StrNode) node(x.operand()));
    }
    if (e instanceof Expr.Not n) {
      return new BoolNodes.Not((BoolNode) node(n.operand()));
    }
    if (e instanceof Expr.Binary b) {
      return binary(b);
    }
    if (e instanceof Expr.In in) {
      return in(in);
    }
    throw new IllegalStateException("nothing to compile for " + e);
  }

  private Object binary(Expr.Binary b) {
    BinaryOp op = b.op();
    Object l = node(b.left());
    Object r = node(b.right());
    switch (op) {
      case AND:
        return new BoolNodes.And((BoolNode) l, (BoolNode) r);
      case OR:
        return new BoolNodes.Or((BoolNode) l, (BoolNode) r);
      case PLUS:
        return type(b.left()).is(Kind.RESOURCES)
            ? new VecNodes.Add((VecNode) l, (VecNode) r)
            : new NumNodes.Add((NumNode) l, (NumNode) r);
      case MINUS:
        return type(b.left()).is(Kind.RESOURCES)
            ? new VecNodes.Sub((VecNode) l, (VecNode) r)
            : new NumNodes.Sub((NumNode) l, (NumNode) r);
      default:
        break;
    }
    BoolNodes.Op cmp = BoolNodes.Op.valueOf(op.name());
    return switch (type(b.left()).kind()) {
      case STRING -> new BoolNodes.StrEquals((StrNode) l, (StrNode) r, op == BinaryOp.NE);
      case BOOL -> new BoolNodes.BoolEquals((BoolNode) l, (BoolNode) r, op == BinaryOp.NE);
      case RESOURCES -> new BoolNodes.VecCompare(cmp, (VecNode) l, (VecNode) r);
      default -> new BoolNodes.NumCompare(cmp, (NumNode) l, (NumNode) r);
    };
  }

  private Object in(Expr.In in) {
    Object operand = node(in.operand());
    List<Expr> values = in.values();
    if (type(in.operand()).is(Kind.STRING)) {
      String[] constants = new String[values.size()];
      for (int i = 0; i < constants.length; i++) {
        constants[i] = ((Meaning.TextValue) meaningOf(values.get(i))).value();
      }
      return new BoolNodes.StrIn((StrNode) operand, constants, in.negated());
    }
    double[] constants = new double[values.size()];
    for (int i = 0; i < constants.length; i++) {
      constants[i] = ((Meaning.NumberValue) meaningOf(values.get(i))).value();
    }
    return new BoolNodes.NumIn((NumNode) operand, constants, in.negated());
  }

  private Meaning meaningOf(Expr e) {
    Expr inner = e;
    while (inner instanceof Expr.Paren p) {
      inner = p.inner();
    }
    return checked.meanings().get(inner);
  }
}
