package dev.caldera.dsl.internal.check;

import dev.caldera.api.GoDuration;
import dev.caldera.api.resource.Quantity;
import dev.caldera.api.resource.ResourceNames;
import dev.caldera.dsl.DiagnosticCode;
import dev.caldera.dsl.internal.lang.Attr;
import dev.caldera.dsl.internal.lang.Catalog;
import dev.caldera.dsl.internal.lang.Entity;
import dev.caldera.dsl.internal.lang.Type;
import dev.caldera.dsl.internal.lang.Type.Kind;
import dev.caldera.dsl.internal.tree.ClassName;
import dev.caldera.dsl.internal.tree.ClassPattern;
import dev.caldera.dsl.internal.tree.Classify;
import dev.caldera.dsl.internal.tree.Declaration;
import dev.caldera.dsl.internal.tree.Expr;
import dev.caldera.dsl.internal.tree.Expr.BinaryOp;
import dev.caldera.dsl.internal.tree.Formatter;
import dev.caldera.dsl.internal.tree.PolicyFile;
import dev.caldera.dsl.internal.tree.PreemptiveBlock;
import dev.caldera.dsl.internal.tree.PreemptiveBlock.PreemptiveRule;
import dev.caldera.dsl.internal.tree.ReclaimBlock;
import dev.caldera.dsl.internal.tree.ReclaimBlock.ReclaimRule;
import dev.caldera.dsl.internal.tree.Reporter;
import dev.caldera.dsl.internal.tree.Span;
import dev.caldera.support.resource.Resource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks a policy's syntax tree and resolves every name in it. Reports every problem it finds (it
 * does not stop at the first), each with a stable {@link DiagnosticCode}.
 */
public final class Checker {

  private final Reporter reporter;
  private final boolean afterSyntaxErrors;
  private final Set<Span> brokenDeclarations;
  private final Map<Expr, Meaning> meanings = new IdentityHashMap<>();
  private final List<Classify> classifiers = new ArrayList<>();
  private final Map<String, int[]> classIndex = new LinkedHashMap<>();
  private final Map<String, Span> classSpans = new HashMap<>();
  private boolean usesAllocation;

  private Checker(Reporter reporter, boolean afterSyntaxErrors, Set<Span> brokenDeclarations) {
    this.reporter = reporter;
    this.afterSyntaxErrors = afterSyntaxErrors;
    this.brokenDeclarations = brokenDeclarations;
  }

  /**
   * Checks {@code file}, reporting to {@code reporter}. After syntax errors the tree lacks what did
   * not parse: the checks that need a whole block (a missing {@code otherwise}, unproduced classes)
   * are skipped for the blocks in {@code brokenDeclarations}, and the check that needs the whole
   * file (an empty policy) is skipped when {@code afterSyntaxErrors}. Returns the resolved policy,
   * or null when anything was reported (including earlier syntax errors).
   */
  public static Checked check(
      PolicyFile file, Reporter reporter, boolean afterSyntaxErrors, Set<Span> brokenDeclarations) {
    return new Checker(reporter, afterSyntaxErrors, brokenDeclarations).run(file);
  }

  private Checked run(PolicyFile file) {
    ReclaimBlock reclaim = null;
    PreemptiveBlock preemptive = null;
    for (Declaration d : file.declarations()) {
      if (d instanceof Classify c) {
        declare(c);
      } else if (d instanceof ReclaimBlock r) {
        if (reclaim != null) {
          reporter.report(
              DiagnosticCode.DUPLICATE_DECLARATION,
              r.span(),
              "a policy has one reclaim block (the first is at line "
                  + reclaim.span().line()
                  + ")");
        } else {
          reclaim = r;
        }
      } else if (d instanceof PreemptiveBlock p) {
        if (preemptive != null) {
          reporter.report(
              DiagnosticCode.DUPLICATE_DECLARATION,
              p.span(),
              "a policy has one preemptive block (the first is at line "
                  + preemptive.span().line()
                  + ")");
        } else {
          preemptive = p;
        }
      }
    }
    if (file.name() != null && reclaim == null && preemptive == null && !afterSyntaxErrors) {
      reporter.report(
          DiagnosticCode.EMPTY_POLICY,
          file.nameSpan(),
          "policy '" + file.name() + "' has neither a reclaim nor a preemptive block");
    }
    for (int c = 0; c < classifiers.size(); c++) {
      classifyBody(classifiers.get(c), c);
    }
    if (reclaim != null) {
      reclaimBlock(reclaim);
    }
    if (preemptive != null) {
      preemptiveBlock(preemptive);
    }
    if (reporter.hasErrors() || file.name() == null) {
      return null;
    }
    return new Checked(
        file, List.copyOf(classifiers), classIndex, meanings, reclaim, preemptive, usesAllocation);
  }

  // ------------------------------------------------------------------ classify

  private void declare(Classify c) {
    for (Classify other : classifiers) {
      if (other.name().equals(c.name())) {
        reporter.report(
            DiagnosticCode.DUPLICATE_DECLARATION,
            c.nameSpan(),
            "classify '"
                + c.name()
                + "' is declared twice (first at line "
                + other.nameSpan().line()
                + ")");
        return;
      }
    }
    if (Catalog.TASK.attribute(c.name()) != null) {
      reporter.report(
          DiagnosticCode.DUPLICATE_DECLARATION,
          c.nameSpan(),
          "classify '"
              + c.name()
              + "' has the name of a task attribute (choose another name, e.g. "
              + c.name()
              + "Class)");
      return;
    }
    int index = classifiers.size();
    classifiers.add(c);
    int k = 0;
    for (ClassName cls : c.classes()) {
      int[] existing = classIndex.get(cls.name());
      if (existing != null) {
        Span first = classSpans.get(cls.name());
        String owner = classifierName(existing[0]);
        reporter.report(
            DiagnosticCode.DUPLICATE_DECLARATION,
            cls.span(),
            existing[0] == index
                ? "class '"
                    + cls.name()
                    + "' is declared twice (first at line "
                    + first.line()
                    + ")"
                : "class '"
                    + cls.name()
                    + "' is already declared by classify "
                    + owner
                    + " (line "
                    + first.line()
                    + ")");
        continue;
      }
      classIndex.put(cls.name(), new int[] {index, k++});
      classSpans.put(cls.name(), cls.span());
    }
  }

  private String classifierName(int index) {
    return classifiers.get(index).name();
  }

  /** The declared class names of a classifier, in index order. */
  private List<String> classesOf(int classifier) {
    List<String> names = new ArrayList<>();
    for (Map.Entry<String, int[]> e : classIndex.entrySet()) {
      if (e.getValue()[0] == classifier) {
        names.add(e.getKey());
      }
    }
    return names;
  }

  private void classifyBody(Classify c, int index) {
    List<String> classes = classesOf(index);
    Set<String> produced = new LinkedHashSet<>();
    boolean direct = false;
    for (Classify.Source s : c.sources()) {
      Type t = expression(s.expr(), Scope.CLASSIFY, null);
      if (!t.is(Kind.STRING) && !t.is(Kind.ERROR)) {
        reporter.report(
            DiagnosticCode.TYPE_MISMATCH,
            s.expr().span(),
            "a classify source must be a string, found " + t.display());
      }
      if (s.mapping() == null) {
        direct = true;
        continue;
      }
      Map<String, Span> keys = new HashMap<>();
      for (Classify.MappingEntry e : s.mapping()) {
        Span first = keys.putIfAbsent(e.key(), e.keySpan());
        if (first != null) {
          reporter.report(
              DiagnosticCode.DUPLICATE_DECLARATION,
              e.keySpan(),
              "duplicate key '" + e.key() + "' in mapping (first at line " + first.line() + ")");
        }
        if (ownClass(e.value(), index, c)) {
          produced.add(e.value().name());
        }
      }
    }
    boolean incomplete = brokenDeclarations.contains(c.span());
    if (c.otherwise() == null) {
      if (!incomplete) {
        reporter.report(
            DiagnosticCode.MISSING_OTHERWISE,
            c.end(),
            "classify "
                + c.name()
                + " has no 'otherwise <class>' as its last line (expected one of: "
                + String.join(", ", classes)
                + ")");
      }
    } else if (ownClass(c.otherwise(), index, c)) {
      produced.add(c.otherwise().name());
    }
    if (direct || incomplete) {
      return;
    }
    for (ClassName cls : c.classes()) {
      int[] at = classIndex.get(cls.name());
      if (at != null
          && at[0] == index
          && classSpans.get(cls.name()) == cls.span()
          && !produced.contains(cls.name())) {
        reporter.report(
            DiagnosticCode.UNPRODUCED_CLASS,
            cls.span(),
            "class '"
                + cls.name()
                + "' of "
                + c.name()
                + " is declared but no source can produce it (map a value to it, add a direct"
                + " source, or make it the otherwise class)");
      }
    }
  }

  /** Whether {@code name} is a class of classifier {@code index}; reports it if not. */
  private boolean ownClass(ClassName name, int index, Classify c) {
    int[] at = classIndex.get(name.name());
    if (at != null && at[0] == index) {
      return true;
    }
    reporter.report(
        DiagnosticCode.UNKNOWN_CLASS,
        name.span(),
        "unknown "
            + c.name()
            + " class '"
            + name.name()
            + "' (known: "
            + String.join(", ", classesOf(index))
            + ")");
    return false;
  }

  // ------------------------------------------------------------------ rules

  private void reclaimBlock(ReclaimBlock block) {
    List<ReclaimRule> checked = new ArrayList<>();
    for (ReclaimRule rule : block.rules()) {
      boolean ok = pattern(rule.reclaimer()) & pattern(rule.reclaimee());
      if (rule.when() != null) {
        condition(rule.when(), Scope.RECLAIM);
      }
      if (!ok) {
        continue;
      }
      for (ReclaimRule earlier : checked) {
        if (covers(earlier.reclaimer(), rule.reclaimer())
            && covers(earlier.reclaimee(), rule.reclaimee())
            && coversCondition(earlier.when(), rule.when())) {
          unreachable(rule.span(), earlier.span(), Formatter.rule(earlier));
          break;
        }
      }
      checked.add(rule);
    }
    if (block.otherwise() == null && !brokenDeclarations.contains(block.span())) {
      reporter.report(
          DiagnosticCode.MISSING_OTHERWISE,
          block.end(),
          "reclaim block has no 'otherwise allow' or 'otherwise deny' as its last rule");
    }
  }

  private void preemptiveBlock(PreemptiveBlock block) {
    List<PreemptiveRule> checked = new ArrayList<>();
    for (PreemptiveRule rule : block.rules()) {
      boolean ok = rule.forClass() == null || pattern(rule.forClass());
      if (rule.when() != null) {
        condition(rule.when(), Scope.PREEMPTIVE);
      }
      if (!ok) {
        continue;
      }
      for (PreemptiveRule earlier : checked) {
        if ((earlier.forClass() == null || covers(earlier.forClass(), rule.forClass()))
            && coversCondition(earlier.when(), rule.when())) {
          unreachable(rule.span(), earlier.span(), Formatter.rule(earlier));
          break;
        }
      }
      checked.add(rule);
    }
    if (block.otherwise() == null && !brokenDeclarations.contains(block.span())) {
      reporter.report(
          DiagnosticCode.MISSING_OTHERWISE,
          block.end(),
          "preemptive block has no 'otherwise allow' or 'otherwise deny' as its last rule");
    }
  }

  private void unreachable(Span rule, Span earlier, String earlierText) {
    reporter.report(
        DiagnosticCode.UNREACHABLE_RULE,
        rule,
        "rule can never match: the rule at line "
            + earlier.line()
            + " ("
            + earlierText
            + ") already covers it");
  }

  /** Whether every subject {@code later} matches is matched by {@code earlier}. */
  private static boolean covers(ClassPattern earlier, ClassPattern later) {
    if (earlier.isAny()) {
      return true;
    }
    return later != null && !later.isAny() && earlier.name().equals(later.name());
  }

  /** An earlier rule without a condition, or with the very same condition, covers the later. */
  private static boolean coversCondition(Expr earlier, Expr later) {
    if (earlier == null) {
      return true;
    }
    return later != null && Formatter.expression(earlier).equals(Formatter.expression(later));
  }

  /** Resolves a class pattern; reports an unknown class. */
  private boolean pattern(ClassPattern p) {
    if (p.isAny() || classIndex.containsKey(p.name())) {
      return true;
    }
    String message;
    if (classifiers.isEmpty()) {
      message =
          "unknown class '"
              + p.name()
              + "': no classify block declares classes (use any, or declare it in a classify"
              + " block)";
    } else if (classifiers.size() == 1) {
      message =
          "unknown "
              + classifierName(0)
              + " class '"
              + p.name()
              + "' (known: "
              + String.join(", ", classesOf(0))
              + ")";
    } else {
      message =
          "unknown class '"
              + p.name()
              + "' (known: "
              + String.join(", ", classIndex.keySet())
              + ")";
    }
    reporter.report(DiagnosticCode.UNKNOWN_CLASS, p.span(), message);
    return false;
  }

  private void condition(Expr e, Scope scope) {
    Type t = expression(e, scope, null);
    if (!t.is(Kind.BOOL) && !t.is(Kind.ERROR)) {
      reporter.report(
          DiagnosticCode.TYPE_MISMATCH,
          e.span(),
          "a 'when' condition must be boolean, found " + t.display());
    }
  }

  // ------------------------------------------------------------------ expressions

  /**
   * The type of {@code e}, recording its meaning. {@code hint} is the type of the other operand of
   * a comparison: it decides what a bare name or an ambiguous literal such as {@code 10m} is.
   */
  private Type expression(Expr e, Scope scope, Type hint) {
    Meaning m = meaning(e, scope, hint);
    meanings.put(e, m);
    return m.type();
  }

  private Meaning meaning(Expr e, Scope scope, Type hint) {
    if (e instanceof Expr.Name n) {
      return name(n, scope, hint);
    }
    if (e instanceof Expr.Member m) {
      return member(m, scope);
    }
    if (e instanceof Expr.Index i) {
      return index(i, scope);
    }
    if (e instanceof Expr.Exists x) {
      Type t = expression(x.operand(), scope, null);
      if (!t.is(Kind.STRING) && !t.is(Kind.ERROR)) {
        reporter.report(
            DiagnosticCode.TYPE_MISMATCH,
            x.opSpan(),
            "'exists' needs a string such as labels[\"key\"], found " + t.display());
      }
      return new Meaning.Plain(Type.BOOL);
    }
    if (e instanceof Expr.Not n) {
      Type t = expression(n.operand(), scope, null);
      if (!t.is(Kind.BOOL) && !t.is(Kind.ERROR)) {
        reporter.report(
            DiagnosticCode.TYPE_MISMATCH,
            n.operand().span(),
            "'not' needs a boolean, found " + t.display());
      }
      return new Meaning.Plain(Type.BOOL);
    }
    if (e instanceof Expr.Binary b) {
      return binary(b, scope);
    }
    if (e instanceof Expr.In in) {
      return in(in, scope);
    }
    if (e instanceof Expr.StringLit s) {
      return new Meaning.TextValue(Type.STRING, s.value());
    }
    if (e instanceof Expr.NumberLit n) {
      return new Meaning.NumberValue(Type.NUMBER, Double.parseDouble(n.text()));
    }
    if (e instanceof Expr.SizedLit s) {
      return sized(s, hint);
    }
    if (e instanceof Expr.BoolLit) {
      return new Meaning.Plain(Type.BOOL);
    }
    if (e instanceof Expr.Paren p) {
      expression(p.inner(), scope, hint);
      return meanings.get(p.inner());
    }
    if (e instanceof Expr.ResourceLit r) {
      return resources(r);
    }
    throw new IllegalStateException("unexpected expression " + e);
  }

  private Meaning name(Expr.Name n, Scope scope, Type hint) {
    Scope.Root root = scope.roots().get(n.name());
    if (root != null) {
      return new Meaning.ObjectRef(Type.entity(root.entity()), root.entity(), root.slot());
    }
    if (hint != null && hint.is(Kind.STRING)) {
      if (hint.symbols() == null || hint.symbols().contains(n.name())) {
        return new Meaning.TextValue(hint, n.name());
      }
      boolean isClass = hint.symbolKind().endsWith(" class");
      reporter.report(
          isClass ? DiagnosticCode.UNKNOWN_CLASS : DiagnosticCode.UNKNOWN_NAME,
          n.span(),
          "unknown "
              + hint.symbolKind()
              + " '"
              + n.name()
              + "' (known: "
              + String.join(", ", hint.symbols())
              + ")");
      return new Meaning.Plain(Type.ERROR);
    }
    reporter.report(
        DiagnosticCode.UNKNOWN_NAME,
        n.span(),
        "unknown name '"
            + n.name()
            + "' (known in "
            + scope.where()
            + ": "
            + String.join(", ", new TreeSet<>(scope.roots().keySet()))
            + ")");
    return new Meaning.Plain(Type.ERROR);
  }

  private Meaning member(Expr.Member m, Scope scope) {
    Type target = expression(m.target(), scope, null);
    if (target.is(Kind.ERROR)) {
      return new Meaning.Plain(Type.ERROR);
    }
    if (target.is(Kind.RESOURCES)) {
      int dim =
          switch (m.name()) {
            case "cpu" -> ResourceNames.CPU_INDEX;
            case "memory" -> ResourceNames.MEMORY_INDEX;
            case "pods" -> ResourceNames.PODS_INDEX;
            default -> -1;
          };
      if (dim < 0) {
        reporter.report(
            DiagnosticCode.UNKNOWN_ATTRIBUTE,
            m.nameSpan(),
            "unknown resource '"
                + m.name()
                + "' (known: cpu, memory, pods; index others, e.g. request[\"nvidia.com/gpu\"])");
        return new Meaning.Plain(Type.ERROR);
      }
      return new Meaning.Dimension(Type.NUMBER, dim, scale(dim));
    }
    if (!target.is(Kind.ENTITY)) {
      reporter.report(
          DiagnosticCode.TYPE_MISMATCH,
          m.nameSpan(),
          "a " + target.display() + " has no attributes (found ." + m.name() + ")");
      return new Meaning.Plain(Type.ERROR);
    }
    Meaning.ObjectRef object = (Meaning.ObjectRef) meanings.get(m.target());
    Entity<?> entity = object.entity();
    Attr<?> attr = entity.attribute(m.name());
    if (attr == null) {
      if (entity == Catalog.TASK && scope.classAttributes()) {
        for (int c = 0; c < classifiers.size(); c++) {
          if (classifierName(c).equals(m.name())) {
            return new Meaning.ClassOf(
                Type.symbols(m.name() + " class", classesOf(c)), object.slot(), c);
          }
        }
      }
      List<String> known = new ArrayList<>();
      entity.attributeNames().forEach(known::add);
      if (entity == Catalog.TASK && scope.classAttributes()) {
        for (Classify c : classifiers) {
          known.add(c.name());
        }
        known.sort(null);
      }
      reporter.report(
          DiagnosticCode.UNKNOWN_ATTRIBUTE,
          m.nameSpan(),
          "unknown attribute '"
              + m.name()
              + "' of "
              + entity.name()
              + " (known: "
              + String.join(", ", known)
              + ")");
      return new Meaning.Plain(Type.ERROR);
    }
    if (attr instanceof Attr.ToEntity<?> to) {
      return new Meaning.ObjectRef(Type.entity(to.target()), to.target(), object.slot());
    }
    usesAllocation |= attr.usesAllocation();
    return new Meaning.Attribute(attr.type(), entity, object.slot(), m.name());
  }

  private Meaning index(Expr.Index i, Scope scope) {
    Type target = expression(i.target(), scope, null);
    if (target.is(Kind.ERROR)) {
      return new Meaning.Plain(Type.ERROR);
    }
    if (target.is(Kind.MAP)) {
      return new Meaning.Plain(Type.STRING);
    }
    if (target.is(Kind.RESOURCES)) {
      int dim = ResourceNames.indexOf(i.key());
      return new Meaning.Dimension(Type.NUMBER, dim, scale(dim));
    }
    reporter.report(
        DiagnosticCode.TYPE_MISMATCH,
        i.keySpan(),
        "cannot index a "
            + target.display()
            + " (only labels, annotations and resources take [\"key\"])");
    return new Meaning.Plain(Type.ERROR);
  }

  /** Internal units per plain unit: milli for cpu and scalars, 1 for memory and pods. */
  private static double scale(int dim) {
    return dim == ResourceNames.MEMORY_INDEX || dim == ResourceNames.PODS_INDEX ? 1 : 1000;
  }

  /** Whether the type of {@code e} is decided by the other operand (a bare symbol or 10m). */
  private static boolean contextual(Expr e, Scope scope) {
    Expr inner = e;
    while (inner instanceof Expr.Paren p) {
      inner = p.inner();
    }
    return inner instanceof Expr.SizedLit
        || (inner instanceof Expr.Name n && !scope.roots().containsKey(n.name()));
  }

  private Meaning binary(Expr.Binary b, Scope scope) {
    BinaryOp op = b.op();
    if (op == BinaryOp.AND || op == BinaryOp.OR) {
      for (Expr side : List.of(b.left(), b.right())) {
        Type t = expression(side, scope, Type.BOOL);
        if (!t.is(Kind.BOOL) && !t.is(Kind.ERROR)) {
          reporter.report(
              DiagnosticCode.TYPE_MISMATCH,
              side.span(),
              "'" + op.symbol() + "' needs boolean operands, found " + t.display());
        }
      }
      return new Meaning.Plain(Type.BOOL);
    }
    Type l;
    Type r;
    if (contextual(b.left(), scope) && !contextual(b.right(), scope)) {
      r = expression(b.right(), scope, null);
      l = expression(b.left(), scope, r);
    } else {
      l = expression(b.left(), scope, null);
      r = expression(b.right(), scope, l);
    }
    if (op == BinaryOp.PLUS || op == BinaryOp.MINUS) {
      if (l.is(Kind.ERROR) || r.is(Kind.ERROR)) {
        return new Meaning.Plain(Type.ERROR);
      }
      if (l.kind() == r.kind()
          && (l.is(Kind.NUMBER) || l.is(Kind.DURATION) || l.is(Kind.RESOURCES))) {
        return new Meaning.Plain(l);
      }
      reporter.report(
          DiagnosticCode.TYPE_MISMATCH,
          b.opSpan(),
          op == BinaryOp.PLUS
              ? "cannot add " + l.display() + " and " + r.display()
              : "cannot subtract " + r.display() + " from " + l.display());
      return new Meaning.Plain(Type.ERROR);
    }
    if (l.is(Kind.ERROR) || r.is(Kind.ERROR)) {
      return new Meaning.Plain(Type.BOOL);
    }
    boolean comparable = l.kind() == r.kind() && !l.is(Kind.ENTITY) && !l.is(Kind.MAP);
    if (!comparable) {
      reporter.report(
          DiagnosticCode.TYPE_MISMATCH,
          b.opSpan(),
          "cannot compare " + l.display() + " with " + r.display());
    } else if (op != BinaryOp.EQ && op != BinaryOp.NE && (l.is(Kind.STRING) || l.is(Kind.BOOL))) {
      reporter.report(
          DiagnosticCode.TYPE_MISMATCH,
          b.opSpan(),
          "'" + op.symbol() + "' needs numbers, durations or resources, found " + l.display());
    }
    return new Meaning.Plain(Type.BOOL);
  }

  private Meaning in(Expr.In in, Scope scope) {
    Type t = expression(in.operand(), scope, null);
    if (t.is(Kind.ERROR)) {
      return new Meaning.Plain(Type.BOOL);
    }
    if (!t.is(Kind.STRING) && !t.is(Kind.NUMBER) && !t.is(Kind.DURATION)) {
      reporter.report(
          DiagnosticCode.TYPE_MISMATCH,
          in.opSpan(),
          "'in' needs a string, number or duration on its left, found " + t.display());
      return new Meaning.Plain(Type.BOOL);
    }
    for (Expr v : in.values()) {
      Expr inner = v;
      while (inner instanceof Expr.Paren p) {
        inner = p.inner();
      }
      boolean literal =
          inner instanceof Expr.StringLit
              || inner instanceof Expr.NumberLit
              || inner instanceof Expr.SizedLit
              || (inner instanceof Expr.Name n && !scope.roots().containsKey(n.name()));
      if (!literal) {
        reporter.report(
            DiagnosticCode.TYPE_MISMATCH,
            v.span(),
            "the values of 'in' must be literals such as \"a\", 42 or 10m");
        continue;
      }
      Type vt = expression(v, scope, t);
      if (!vt.is(Kind.ERROR) && vt.kind() != t.kind()) {
        reporter.report(
            DiagnosticCode.TYPE_MISMATCH,
            v.span(),
            "cannot compare " + t.display() + " with " + vt.display());
      }
    }
    return new Meaning.Plain(Type.BOOL);
  }

  private Meaning sized(Expr.SizedLit s, Type hint) {
    Double quantity = null;
    try {
      quantity = Quantity.parse(s.text()).amount().doubleValue();
    } catch (IllegalArgumentException e) {
      // not a quantity
    }
    Double duration = null;
    try {
      duration = (double) GoDuration.parse(s.text()).toMillis();
    } catch (IllegalArgumentException | ArithmeticException e) {
      // not a duration
    }
    boolean wantDuration = hint != null && hint.is(Kind.DURATION);
    if (duration != null && (wantDuration || quantity == null)) {
      return new Meaning.NumberValue(Type.DURATION, duration);
    }
    if (quantity != null) {
      return new Meaning.NumberValue(Type.NUMBER, quantity);
    }
    reporter.report(
        DiagnosticCode.INVALID_LITERAL,
        s.span(),
        "invalid quantity or duration '"
            + s.text()
            + "' (expected a quantity such as 500m or 4Gi, or a duration such as 90s or 1h30m)");
    return new Meaning.Plain(Type.ERROR);
  }

  private Meaning resources(Expr.ResourceLit r) {
    Map<String, Quantity> values = new LinkedHashMap<>();
    boolean ok = true;
    for (Expr.ResourceEntry entry : r.entries()) {
      if (values.containsKey(entry.name())) {
        reporter.report(
            DiagnosticCode.DUPLICATE_DECLARATION,
            entry.nameSpan(),
            "resource '" + entry.name() + "' is given twice");
        ok = false;
        continue;
      }
      try {
        values.put(entry.name(), Quantity.parse(entry.value()));
      } catch (IllegalArgumentException e) {
        reporter.report(
            DiagnosticCode.INVALID_LITERAL,
            entry.valueSpan(),
            "invalid quantity '"
                + entry.value()
                + "' for "
                + entry.name()
                + " (expected a number, or a quantity such as 500m or 4Gi)");
        ok = false;
      }
    }
    if (!ok) {
      return new Meaning.Plain(Type.ERROR);
    }
    return new Meaning.VectorValue(Type.RESOURCES, Resource.fromList(values));
  }
}
