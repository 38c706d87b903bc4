package dev.caldera.dsl.internal.tree;

import dev.caldera.dsl.internal.tree.Classify.MappingEntry;
import dev.caldera.dsl.internal.tree.Classify.Source;
import dev.caldera.dsl.internal.tree.Expr.Binary;
import dev.caldera.dsl.internal.tree.Expr.BinaryOp;
import dev.caldera.dsl.internal.tree.PreemptiveBlock.PreemptiveRule;
import dev.caldera.dsl.internal.tree.ReclaimBlock.ReclaimRule;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Prints a syntax tree back to source in the canonical layout: two-space indentation, one rule per
 * line, a blank line between blocks. Comments are not part of the tree and are not printed.
 * Parentheses are printed where the tree has them, and added where precedence needs them.
 */
public final class Formatter {

  private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
  private static final List<String> KEYWORDS =
      List.of(
          "policy",
          "classify",
          "as",
          "from",
          "otherwise",
          "reclaim",
          "preemptive",
          "may",
          "not",
          "when",
          "any",
          "allow",
          "deny",
          "for",
          "and",
          "or",
          "in",
          "exists",
          "true",
          "false");

  private Formatter() {}

  /** The whole file. */
  public static String format(PolicyFile file) {
    StringBuilder out = new StringBuilder();
    out.append("policy ").append(file.name()).append('\n');
    for (Declaration d : file.declarations()) {
      out.append('\n');
      if (d instanceof Classify c) {
        classify(c, out);
      } else if (d instanceof ReclaimBlock r) {
        reclaim(r, out);
      } else if (d instanceof PreemptiveBlock p) {
        preemptive(p, out);
      }
    }
    return out.toString();
  }

  private static void classify(Classify c, StringBuilder out) {
    out.append("classify ").append(c.name()).append(" as ");
    for (int i = 0; i < c.classes().size(); i++) {
      out.append(i == 0 ? "" : " | ").append(c.classes().get(i).name());
    }
    out.append(" {\n");
    for (Source s : c.sources()) {
      out.append("  from ").append(expression(s.expr()));
      if (s.mapping() != null) {
        out.append(" {");
        for (int i = 0; i < s.mapping().size(); i++) {
          MappingEntry e = s.mapping().get(i);
          out.append(i == 0 ? " " : ", ").append(key(e.key())).append(": ");
          out.append(e.value().name());
        }
        out.append(s.mapping().isEmpty() ? "}" : " }");
      }
      out.append('\n');
    }
    if (c.otherwise() != null) {
      out.append("  otherwise ").append(c.otherwise().name()).append('\n');
    }
    out.append("}\n");
  }

  private static void reclaim(ReclaimBlock r, StringBuilder out) {
    out.append("reclaim {\n");
    for (ReclaimRule rule : r.rules()) {
      out.append("  ").append(rule(rule)).append('\n');
    }
    otherwise(r.otherwise(), out);
    out.append("}\n");
  }

  private static void preemptive(PreemptiveBlock p, StringBuilder out) {
    out.append("preemptive {\n");
    for (PreemptiveRule rule : p.rules()) {
      out.append("  ").append(rule(rule)).append('\n');
    }
    otherwise(p.otherwise(), out);
    out.append("}\n");
  }

  private static void otherwise(Otherwise o, StringBuilder out) {
    if (o != null) {
      out.append("  otherwise ").append(o.allow() ? "allow" : "deny").append('\n');
    }
  }

  /** One reclaim rule on one line. */
  public static String rule(ReclaimRule rule) {
    StringBuilder out = new StringBuilder();
    out.append(rule.reclaimer()).append(rule.allow() ? " may reclaim " : " may not reclaim ");
    out.append(rule.reclaimee());
    if (rule.when() != null) {
      out.append(" when ").append(expression(rule.when()));
    }
    return out.toString();
  }

  /** One preemptive rule on one line. */
  public static String rule(PreemptiveRule rule) {
    StringBuilder out = new StringBuilder(rule.allow() ? "allow" : "deny");
    if (rule.forClass() != null) {
      out.append(" for ").append(rule.forClass());
    }
    if (rule.when() != null) {
      out.append(" when ").append(expression(rule.when()));
    }
    return out.toString();
  }

  /** An expression, parenthesised only where the tree or precedence needs it. */
  public static String expression(Expr e) {
    StringBuilder out = new StringBuilder();
    print(e, out);
    return out.toString();
  }

  private static void print(Expr e, StringBuilder out) {
    if (e instanceof Expr.Name n) {
      out.append(n.name());
    } else if (e instanceof Expr.Member m) {
      operand(m.target(), POSTFIX, out);
      out.append('.').append(m.name());
    } else if (e instanceof Expr.Index i) {
      operand(i.target(), POSTFIX, out);
      out.append('[').append(quote(i.key())).append(']');
    } else if (e instanceof Expr.Exists x) {
      operand(x.operand(), EXISTS, out);
      out.append(" exists");
    } else if (e instanceof Binary b) {
      int p = precedence(b);
      operand(b.left(), p, out);
      out.append(' ').append(b.op().symbol()).append(' ');
      operand(b.right(), p + 1, out);
    } else if (e instanceof Expr.Not n) {
      out.append("not ");
      operand(n.operand(), NOT, out);
    } else if (e instanceof Expr.In in) {
      operand(in.operand(), IN, out);
      out.append(in.negated() ? " not in [" : " in [");
      for (int i = 0; i < in.values().size(); i++) {
        out.append(i == 0 ? "" : ", ");
        print(in.values().get(i), out);
      }
      out.append(']');
    } else if (e instanceof Expr.StringLit s) {
      out.append(quote(s.value()));
    } else if (e instanceof Expr.NumberLit n) {
      out.append(n.text());
    } else if (e instanceof Expr.SizedLit s) {
      out.append(s.text());
    } else if (e instanceof Expr.BoolLit b) {
      out.append(b.value());
    } else if (e instanceof Expr.Paren p) {
      out.append('(');
      print(p.inner(), out);
      out.append(')');
    } else if (e instanceof Expr.ResourceLit r) {
      out.append('{');
      for (int i = 0; i < r.entries().size(); i++) {
        Expr.ResourceEntry entry = r.entries().get(i);
        out.append(i == 0 ? "" : ", ").append(key(entry.name())).append(": ");
        out.append(entry.value());
      }
      out.append('}');
    }
  }

  private static final int OR = 1;
  private static final int AND = 2;
  private static final int NOT = 3;
  private static final int IN = 4;
  private static final int COMPARISON = 5;
  private static final int ADDITIVE = 6;
  private static final int EXISTS = 7;
  private static final int POSTFIX = 8;
  private static final int PRIMARY = 9;

  private static void operand(Expr e, int atLeast, StringBuilder out) {
    if (precedence(e) < atLeast) {
      out.append('(');
      print(e, out);
      out.append(')');
    } else {
      print(e, out);
    }
  }

  private static int precedence(Expr e) {
    if (e instanceof Binary b) {
      BinaryOp op = b.op();
      if (op == BinaryOp.OR) {
        return OR;
      }
      if (op == BinaryOp.AND) {
        return AND;
      }
      return op.isComparison() ? COMPARISON : ADDITIVE;
    }
    if (e instanceof Expr.Not) {
      return NOT;
    }
    if (e instanceof Expr.In) {
      return IN;
    }
    if (e instanceof Expr.Exists) {
      return EXISTS;
    }
    if (e instanceof Expr.Member || e instanceof Expr.Index) {
      return POSTFIX;
    }
    return PRIMARY;
  }

  private static String key(String key) {
    return IDENTIFIER.matcher(key).matches() && !KEYWORDS.contains(key) ? key : quote(key);
  }

  /** A string literal for {@code value}. */
  public static String quote(String value) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\t' -> out.append("\\t");
        default -> out.append(c);
      }
    }
    return out.append('"').toString();
  }
}
