package dev.caldera.dsl.internal.parser;

import dev.caldera.dsl.DiagnosticCode;
import dev.caldera.dsl.internal.tree.Span;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.tree.ErrorNode;
import org.antlr.v4.runtime.tree.ParseTreeListener;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * Stops the parser, as it reads, at the first point where a file goes past the documented limits of
 * the language, so that neither the parser nor the recursive passes after it (tree building,
 * checking, compiling, evaluating) can run out of stack.
 *
 * <p>Every syntax tree that passes is at most about {@link #MAX_OPERATORS} + {@link
 * #MAX_PATH_STEPS} + a few times {@link #MAX_NESTING} levels deep.
 */
final class SizeLimits implements ParseTreeListener {

  /** Open parentheses, brackets and braces, plus a run of {@code not not ...}, at any point. */
  static final int MAX_NESTING = 64;

  /** Operators in one condition: and, or, not, comparisons, +, -, in, exists. */
  static final int MAX_OPERATORS = 1_000;

  /** Attribute and index steps in one path ({@code a.b["k"]} has two). */
  static final int MAX_PATH_STEPS = 32;

  /**
   * Characters in one string literal or name. The compiler keeps strings as class file constants,
   * whose encoding takes at most 65,535 bytes (up to 3 per character).
   */
  static final int MAX_TOKEN_CHARS = 10_000;

  /** Source characters in one file. */
  static final int MAX_SOURCE_CHARS = 1_000_000;

  /** The first limit a file went past. */
  static final class Exceeded extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final DiagnosticCode code;
    final transient Span span;

    Exceeded(DiagnosticCode code, Span span, String message) {
      super(message, null, false, false);
      this.code = code;
      this.span = span;
    }
  }

  private int brackets;
  private int notRun;
  private int operators;
  private int pathSteps;

  @Override
  public void enterEveryRule(ParserRuleContext ctx) {
    if (ctx instanceof PolicyParser.ReclaimRuleContext
        || ctx instanceof PolicyParser.PreemptiveRuleContext
        || ctx instanceof PolicyParser.ClassifySourceContext) {
      operators = 0;
    }
  }

  @Override
  public void exitEveryRule(ParserRuleContext ctx) {}

  @Override
  public void visitErrorNode(ErrorNode node) {}

  @Override
  public void visitTerminal(TerminalNode node) {
    Token t = node.getSymbol();
    int type = t.getType();
    switch (type) {
      case PolicyLexer.LPAREN, PolicyLexer.LBRACK, PolicyLexer.LBRACE -> brackets++;
      case PolicyLexer.RPAREN, PolicyLexer.RBRACK, PolicyLexer.RBRACE ->
          brackets = Math.max(0, brackets - 1);
      default -> {}
    }
    if ((type == PolicyLexer.STRING || type == PolicyLexer.IDENT)
        && t.getText().length() > MAX_TOKEN_CHARS) {
      throw new Exceeded(
          DiagnosticCode.TOO_LARGE,
          new Span(t.getLine(), t.getCharPositionInLine() + 1, 1),
          (type == PolicyLexer.STRING ? "string" : "name")
              + " too long: "
              + t.getText().length()
              + " characters, at most "
              + MAX_TOKEN_CHARS);
    }
    notRun = type == PolicyLexer.NOT ? notRun + 1 : 0;
    if (brackets + notRun > MAX_NESTING) {
      throw new Exceeded(
          DiagnosticCode.TOO_DEEP,
          span(t),
          "nested too deeply: more than "
              + MAX_NESTING
              + " levels of parentheses, brackets, braces and 'not'");
    }
    if (type == PolicyLexer.DOT || type == PolicyLexer.LBRACK) {
      if (++pathSteps > MAX_PATH_STEPS) {
        throw new Exceeded(
            DiagnosticCode.TOO_LARGE,
            span(t),
            "path too long: more than " + MAX_PATH_STEPS + " attribute or index steps");
      }
    } else if (type != PolicyLexer.IDENT
        && type != PolicyLexer.STRING
        && type != PolicyLexer.RBRACK
        && type != PolicyLexer.RPAREN) {
      pathSteps = 0;
    }
    if (isOperator(type) && ++operators > MAX_OPERATORS) {
      throw new Exceeded(
          DiagnosticCode.TOO_LARGE,
          span(t),
          "condition too large: more than "
              + MAX_OPERATORS
              + " operators (and, or, not, comparisons, +, -, in, exists) in one condition");
    }
  }

  private static boolean isOperator(int type) {
    return switch (type) {
      case PolicyLexer.AND,
          PolicyLexer.OR,
          PolicyLexer.NOT,
          PolicyLexer.EQ,
          PolicyLexer.NE,
          PolicyLexer.LT,
          PolicyLexer.LE,
          PolicyLexer.GT,
          PolicyLexer.GE,
          PolicyLexer.PLUS,
          PolicyLexer.MINUS,
          PolicyLexer.IN,
          PolicyLexer.EXISTS ->
          true;
      default -> false;
    };
  }

  static Span span(Token t) {
    return new Span(t.getLine(), t.getCharPositionInLine() + 1, t.getText().length());
  }
}
