package dev.caldera.dsl.internal.parser;

import org.antlr.v4.runtime.DefaultErrorStrategy;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Token;

/**
 * ANTLR's recovery, tuned for a language written one rule per line: it never conjures a missing
 * token and drops an extra one only within its line (otherwise the error is paired with the next
 * line, which is then reported too), and after an error it also skips the rest of the offending
 * line.
 */
final class LineRecovery extends DefaultErrorStrategy {

  @Override
  protected boolean singleTokenInsertion(Parser recognizer) {
    return false;
  }

  /** Drops one extra token only when what follows it is on the same line. */
  @Override
  protected Token singleTokenDeletion(Parser recognizer) {
    Token next = recognizer.getInputStream().LT(2);
    if (next == null || next.getLine() != recognizer.getCurrentToken().getLine()) {
      return null;
    }
    return super.singleTokenDeletion(recognizer);
  }

  @Override
  public void recover(Parser recognizer, RecognitionException e) {
    Token bad = recognizer.getCurrentToken();
    super.recover(recognizer, e);
    Token t = recognizer.getCurrentToken();
    while (t.getType() != Token.EOF
        && t.getLine() == bad.getLine()
        && t.getType() != PolicyLexer.RBRACE) {
      recognizer.consume();
      t = recognizer.getCurrentToken();
    }
  }
}
