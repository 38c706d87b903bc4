package dev.caldera.dsl.internal.parser;

import dev.caldera.dsl.DiagnosticCode;
import dev.caldera.dsl.internal.tree.Reporter;
import dev.caldera.dsl.internal.tree.Span;
import java.util.ArrayList;
import java.util.List;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.Lexer;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.misc.IntervalSet;

/**
 * Reports ANTLR's lexer and parser errors in our own words: {@code syntax error: unexpected 'x',
 * expected 'reclaim', a name or end of file}.
 */
final class SyntaxErrors extends BaseErrorListener {

  private final Reporter reporter;

  SyntaxErrors(Reporter reporter) {
    this.reporter = reporter;
  }

  @Override
  public void syntaxError(
      Recognizer<?, ?> recognizer,
      Object offendingSymbol,
      int line,
      int charPositionInLine,
      String msg,
      RecognitionException e) {
    if (recognizer instanceof Lexer) {
      int at = msg.indexOf("at: '");
      String text = at < 0 ? msg : msg.substring(at + 5, msg.length() - 1);
      reporter.report(
          DiagnosticCode.SYNTAX,
          new Span(line, charPositionInLine + 1, 1),
          "syntax error: unexpected character '" + text.charAt(0) + "'");
      return;
    }
    Token token = (Token) offendingSymbol;
    String found = token.getType() == Token.EOF ? "end of file" : "'" + token.getText() + "'";
    IntervalSet expected =
        e != null && e.getExpectedTokens() != null
            ? e.getExpectedTokens()
            : ((Parser) recognizer).getExpectedTokens();
    int length = token.getType() == Token.EOF ? 1 : token.getText().length();
    reporter.report(
        DiagnosticCode.SYNTAX,
        new Span(line, charPositionInLine + 1, length),
        "syntax error: unexpected " + found + ", expected " + describe(expected));
  }

  private static String describe(IntervalSet set) {
    List<String> names = new ArrayList<>();
    for (int type : set.toList()) {
      names.add(name(type));
    }
    if (names.isEmpty()) {
      return "something else";
    }
    if (names.size() == 1) {
      return names.get(0);
    }
    return String.join(", ", names.subList(0, names.size() - 1))
        + " or "
        + names.get(names.size() - 1);
  }

  private static String name(int type) {
    return switch (type) {
      case Token.EOF -> "end of file";
      case PolicyLexer.IDENT -> "a name";
      case PolicyLexer.STRING -> "a string";
      case PolicyLexer.NUMBER -> "a number";
      case PolicyLexer.SIZED -> "a quantity or duration";
      default -> PolicyLexer.VOCABULARY.getDisplayName(type);
    };
  }
}
