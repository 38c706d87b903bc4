package dev.caldera.dsl.internal.parser;

import dev.caldera.dsl.internal.parser.PolicyParser.AdditiveExpressionContext;
import dev.caldera.dsl.internal.parser.PolicyParser.AndExpressionContext;
import dev.caldera.dsl.internal.parser.PolicyParser.BooleanLiteralContext;
import dev.caldera.dsl.internal.parser.PolicyParser.ClassPatternContext;
import dev.caldera.dsl.internal.parser.PolicyParser.ClassifyDeclarationContext;
import dev.caldera.dsl.internal.parser.PolicyParser.ClassifySourceContext;
import dev.caldera.dsl.internal.parser.PolicyParser.ComparisonExpressionContext;
import dev.caldera.dsl.internal.parser.PolicyParser.DeclarationContext;
import dev.caldera.dsl.internal.parser.PolicyParser.ExistsExpressionContext;
import dev.caldera.dsl.internal.parser.PolicyParser.ExpressionContext;
import dev.caldera.dsl.internal.parser.PolicyParser.InExpressionContext;
import dev.caldera.dsl.internal.parser.PolicyParser.IndexExpressionContext;
import dev.caldera.dsl.internal.parser.PolicyParser.MappingEntryContext;
import dev.caldera.dsl.internal.parser.PolicyParser.MappingKeyContext;
import dev.caldera.dsl.internal.parser.PolicyParser.MemberExpressionContext;
import dev.caldera.dsl.internal.parser.PolicyParser.NameReferenceContext;
import dev.caldera.dsl.internal.parser.PolicyParser.NotExpressionContext;
import dev.caldera.dsl.internal.parser.PolicyParser.NumberLiteralContext;
import dev.caldera.dsl.internal.parser.PolicyParser.OrExpressionContext;
import dev.caldera.dsl.internal.parser.PolicyParser.ParenthesizedContext;
import dev.caldera.dsl.internal.parser.PolicyParser.PolicyFileContext;
import dev.caldera.dsl.internal.parser.PolicyParser.PreemptiveDeclarationContext;
import dev.caldera.dsl.internal.parser.PolicyParser.PreemptiveRuleContext;
import dev.caldera.dsl.internal.parser.PolicyParser.PrimaryContext;
import dev.caldera.dsl.internal.parser.PolicyParser.PrimaryExpressionContext;
import dev.caldera.dsl.internal.parser.PolicyParser.ReclaimDeclarationContext;
import dev.caldera.dsl.internal.parser.PolicyParser.ReclaimRuleContext;
import dev.caldera.dsl.internal.parser.PolicyParser.ResourceEntryContext;
import dev.caldera.dsl.internal.parser.PolicyParser.ResourceLiteralContext;
import dev.caldera.dsl.internal.parser.PolicyParser.RuleOtherwiseContext;
import dev.caldera.dsl.internal.parser.PolicyParser.SizedLiteralContext;
import dev.caldera.dsl.internal.parser.PolicyParser.StringKeyContext;
import dev.caldera.dsl.internal.parser.PolicyParser.StringLiteralContext;
import dev.caldera.dsl.internal.parser.PolicyParser.VerdictContext;
import dev.caldera.dsl.internal.tree.ClassName;
import dev.caldera.dsl.internal.tree.ClassPattern;
import dev.caldera.dsl.internal.tree.Classify;
import dev.caldera.dsl.internal.tree.Declaration;
import dev.caldera.dsl.internal.tree.Expr;
import dev.caldera.dsl.internal.tree.Expr.BinaryOp;
import dev.caldera.dsl.internal.tree.Otherwise;
import dev.caldera.dsl.internal.tree.PolicyFile;
import dev.caldera.dsl.internal.tree.PreemptiveBlock;
import dev.caldera.dsl.internal.tree.ReclaimBlock;
import dev.caldera.dsl.internal.tree.Span;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.tree.ErrorNode;
import org.antlr.v4.runtime.tree.ParseTree;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * Turns ANTLR's parse tree into the records of {@code internal.tree}. After a syntax error the tree
 * still holds everything that parsed cleanly: a rule, source or entry that contains an error is
 * left out, so that the checker can report the other problems of the file without echoing the
 * syntax error.
 */
final class TreeBuilder {

  private final String[] lines;
  private final Set<Span> broken = new HashSet<>();

  TreeBuilder(String source) {
    this.lines = source.split("\r?\n|\r", -1);
  }

  /** Where the declarations start that held a syntax error (and so may lack parts). */
  Set<Span> brokenDeclarations() {
    return broken;
  }

  PolicyFile file(PolicyFileContext ctx) {
    String name = null;
    Span nameSpan = Span.START;
    if (ctx.policyHeader() != null && !broken(ctx.policyHeader())) {
      Token t = ctx.policyHeader().name;
      name = t.getText();
      nameSpan = span(t);
    }
    List<Declaration> declarations = new ArrayList<>();
    for (DeclarationContext d : ctx.declaration()) {
      Declaration built = declaration(d);
      if (built != null) {
        declarations.add(built);
        if (broken(d)) {
          broken.add(built.span());
        }
      }
    }
    return new PolicyFile(name, nameSpan, declarations);
  }

  private Declaration declaration(DeclarationContext ctx) {
    if (ctx instanceof ClassifyDeclarationContext c) {
      return classify(c);
    }
    if (ctx instanceof ReclaimDeclarationContext r) {
      List<ReclaimBlock.ReclaimRule> rules = new ArrayList<>();
      for (ReclaimRuleContext rule : r.reclaimRule()) {
        if (!broken(rule)) {
          rules.add(
              new ReclaimBlock.ReclaimRule(
                  pattern(rule.reclaimer),
                  rule.negated == null,
                  pattern(rule.reclaimee),
                  rule.expression() == null ? null : expr(rule.expression()),
                  span(rule)));
        }
      }
      return new ReclaimBlock(
          rules, otherwise(r.ruleOtherwise()), span(r.RECLAIM().getSymbol()), end(r.RBRACE(), r));
    }
    if (ctx instanceof PreemptiveDeclarationContext p) {
      List<PreemptiveBlock.PreemptiveRule> rules = new ArrayList<>();
      for (PreemptiveRuleContext rule : p.preemptiveRule()) {
        if (!broken(rule)) {
          rules.add(
              new PreemptiveBlock.PreemptiveRule(
                  allow(rule.verdict()),
                  rule.classPattern() == null ? null : pattern(rule.classPattern()),
                  rule.expression() == null ? null : expr(rule.expression()),
                  span(rule)));
        }
      }
      return new PreemptiveBlock(
          rules,
          otherwise(p.ruleOtherwise()),
          span(p.PREEMPTIVE().getSymbol()),
          end(p.RBRACE(), p));
    }
    return null;
  }

  private Classify classify(ClassifyDeclarationContext c) {
    if (c.name == null || c.name.getTokenIndex() < 0 || c.classNames() == null) {
      return null;
    }
    List<ClassName> classes = new ArrayList<>();
    for (TerminalNode id : c.classNames().IDENT()) {
      if (!(id instanceof ErrorNode)) {
        classes.add(new ClassName(id.getText(), span(id.getSymbol())));
      }
    }
    List<Classify.Source> sources = new ArrayList<>();
    for (ClassifySourceContext s : c.classifySource()) {
      if (s.expression() == null || broken(s.expression())) {
        continue;
      }
      List<Classify.MappingEntry> mapping = null;
      if (s.classMapping() != null) {
        mapping = new ArrayList<>();
        for (MappingEntryContext e : s.classMapping().mappingEntry()) {
          if (!broken(e)) {
            mapping.add(
                new Classify.MappingEntry(
                    key(e.key), span(e.key), new ClassName(e.value.getText(), span(e.value))));
          }
        }
      }
      sources.add(new Classify.Source(expr(s.expression()), mapping, span(s)));
    }
    ClassName otherwise = null;
    if (c.classifyOtherwise() != null && !broken(c.classifyOtherwise())) {
      Token t = c.classifyOtherwise().IDENT().getSymbol();
      otherwise = new ClassName(t.getText(), span(t));
    }
    return new Classify(
        c.name.getText(),
        span(c.name),
        classes,
        sources,
        otherwise,
        span(c.CLASSIFY().getSymbol()),
        end(c.RBRACE(), c));
  }

  private Otherwise otherwise(RuleOtherwiseContext ctx) {
    if (ctx == null || broken(ctx)) {
      return null;
    }
    return new Otherwise(allow(ctx.verdict()), span(ctx));
  }

  private static boolean allow(VerdictContext v) {
    return v instanceof PolicyParser.AllowVerdictContext;
  }

  private ClassPattern pattern(ClassPatternContext ctx) {
    return new ClassPattern(
        ctx instanceof PolicyParser.AnyClassContext ? null : ctx.getText(), span(ctx));
  }

  private static String key(MappingKeyContext ctx) {
    return ctx instanceof StringKeyContext s ? unquote(s.STRING().getText()) : ctx.getText();
  }

  private Expr expr(ExpressionContext ctx) {
    Span span = span(ctx);
    if (ctx instanceof PrimaryExpressionContext p) {
      return primary(p.primary());
    }
    if (ctx instanceof MemberExpressionContext m) {
      return new Expr.Member(expr(m.expression()), m.name.getText(), span(m.name), span);
    }
    if (ctx instanceof IndexExpressionContext i) {
      return new Expr.Index(expr(i.expression()), unquote(i.key.getText()), span(i.key), span);
    }
    if (ctx instanceof ExistsExpressionContext e) {
      return new Expr.Exists(expr(e.expression()), span(e.EXISTS().getSymbol()), span);
    }
    if (ctx instanceof AdditiveExpressionContext a) {
      return binary(a.op, a.left, a.right, span);
    }
    if (ctx instanceof ComparisonExpressionContext c) {
      return binary(c.op, c.left, c.right, span);
    }
    if (ctx instanceof AndExpressionContext a) {
      return binary(a.AND().getSymbol(), a.left, a.right, span);
    }
    if (ctx instanceof OrExpressionContext o) {
      return binary(o.OR().getSymbol(), o.left, o.right, span);
    }
    if (ctx instanceof NotExpressionContext n) {
      return new Expr.Not(expr(n.expression()), span);
    }
    if (ctx instanceof InExpressionContext in) {
      List<ExpressionContext> all = in.expression();
      List<Expr> values = new ArrayList<>();
      for (int i = 1; i < all.size(); i++) {
        values.add(expr(all.get(i)));
      }
      return new Expr.In(
          expr(all.get(0)), in.negated != null, values, span(in.IN().getSymbol()), span);
    }
    throw new IllegalStateException("unexpected expression " + ctx.getClass().getSimpleName());
  }

  private Expr binary(Token op, ExpressionContext left, ExpressionContext right, Span span) {
    return new Expr.Binary(BinaryOp.of(op.getText()), expr(left), expr(right), span(op), span);
  }

  private Expr primary(PrimaryContext ctx) {
    Span span = span(ctx);
    if (ctx instanceof NameReferenceContext n) {
      return new Expr.Name(n.getText(), span);
    }
    if (ctx instanceof StringLiteralContext s) {
      return new Expr.StringLit(unquote(s.getText()), span);
    }
    if (ctx instanceof NumberLiteralContext n) {
      return new Expr.NumberLit(n.getText(), span);
    }
    if (ctx instanceof SizedLiteralContext s) {
      return new Expr.SizedLit(s.getText(), span);
    }
    if (ctx instanceof BooleanLiteralContext b) {
      return new Expr.BoolLit(b.value.getType() == PolicyLexer.TRUE, span);
    }
    if (ctx instanceof ParenthesizedContext p) {
      return new Expr.Paren(expr(p.expression()), span);
    }
    if (ctx instanceof ResourceLiteralContext r) {
      List<Expr.ResourceEntry> entries = new ArrayList<>();
      for (ResourceEntryContext e : r.resourceEntry()) {
        entries.add(
            new Expr.ResourceEntry(key(e.key), span(e.key), e.value.getText(), span(e.value)));
      }
      return new Expr.ResourceLit(entries, span);
    }
    throw new IllegalStateException("unexpected primary " + ctx.getClass().getSimpleName());
  }

  /** Whether the subtree holds a syntax error (a recognition exception or an error node). */
  static boolean broken(ParseTree tree) {
    if (tree instanceof ErrorNode) {
      return true;
    }
    if (tree instanceof ParserRuleContext ctx) {
      if (ctx.exception != null) {
        return true;
      }
      for (int i = 0; i < ctx.getChildCount(); i++) {
        if (broken(ctx.getChild(i))) {
          return true;
        }
      }
    }
    return false;
  }

  private static String unquote(String literal) {
    StringBuilder out = new StringBuilder();
    for (int i = 1; i < literal.length() - 1; i++) {
      char c = literal.charAt(i);
      if (c == '\\' && i + 1 < literal.length() - 1) {
        char n = literal.charAt(++i);
        out.append(n == 'n' ? '\n' : n == 't' ? '\t' : n);
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static Span span(Token t) {
    return new Span(t.getLine(), t.getCharPositionInLine() + 1, t.getText().length());
  }

  private Span end(TerminalNode close, ParserRuleContext block) {
    if (close != null && !(close instanceof ErrorNode)) {
      return span(close.getSymbol());
    }
    Token stop = block.getStop() != null ? block.getStop() : block.getStart();
    return span(stop);
  }

  /** From the first token of {@code ctx} to its last, or to the end of the first line. */
  private Span span(ParserRuleContext ctx) {
    Token start = ctx.getStart();
    Token stop = ctx.getStop();
    int line = start.getLine();
    int column = start.getCharPositionInLine();
    int length;
    if (stop != null && stop.getLine() == line && stop.getTokenIndex() >= start.getTokenIndex()) {
      length = stop.getCharPositionInLine() + stop.getText().length() - column;
    } else {
      String text = line >= 1 && line <= lines.length ? lines[line - 1] : "";
      length = text.length() - column;
    }
    return new Span(line, column + 1, length);
  }
}
