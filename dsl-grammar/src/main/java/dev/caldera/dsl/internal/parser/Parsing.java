package dev.caldera.dsl.internal.parser;

import dev.caldera.dsl.DiagnosticCode;
import dev.caldera.dsl.internal.tree.PolicyFile;
import dev.caldera.dsl.internal.tree.Reporter;
import dev.caldera.dsl.internal.tree.Span;
import java.util.List;
import java.util.Set;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.Token;

/** Parses a policy source into a syntax tree; ANTLR's types stay in this package. */
public final class Parsing {

  private Parsing() {}

  /**
   * The tree of {@code source}; syntax errors go to {@code reporter}, and the tree then holds what
   * parsed cleanly (its name is null when the {@code policy NAME} header is broken).
   */
  public static PolicyFile parse(String source, Reporter reporter) {
    return parseWithGaps(source, reporter).file();
  }

  /**
   * The tree and where the declarations start that held syntax errors.
   *
   * @param file the tree
   * @param brokenDeclarations spans of declarations that lost parts to syntax errors
   */
  public record Parsed(PolicyFile file, Set<Span> brokenDeclarations) {}

  /** As {@link #parse}, and tells which declarations are incomplete. */
  public static Parsed parseWithGaps(String source, Reporter reporter) {
    if (source.length() > SizeLimits.MAX_SOURCE_CHARS) {
      reporter.report(
          DiagnosticCode.TOO_LARGE,
          Span.START,
          "file too large: "
              + source.length()
              + " characters, at most "
              + SizeLimits.MAX_SOURCE_CHARS
              + " are read");
      return new Parsed(new PolicyFile(null, Span.START, List.of()), Set.of());
    }
    SyntaxErrors errors = new SyntaxErrors(reporter);
    PolicyLexer lexer = new PolicyLexer(CharStreams.fromString(source, reporter.file()));
    lexer.removeErrorListeners();
    lexer.addErrorListener(errors);
    PolicyParser parser = new PolicyParser(new CommonTokenStream(lexer));
    parser.removeErrorListeners();
    parser.addErrorListener(errors);
    parser.setErrorHandler(new LineRecovery());
    parser.addParseListener(new SizeLimits());
    PolicyParser.PolicyFileContext parsed;
    try {
      parsed = parser.policyFile();
    } catch (SizeLimits.Exceeded e) {
      reporter.report(e.code, e.span, e.getMessage());
      return new Parsed(new PolicyFile(headerName(source), Span.START, List.of()), Set.of());
    }
    TreeBuilder builder = new TreeBuilder(source);
    PolicyFile file = builder.file(parsed);
    return new Parsed(file, Set.copyOf(builder.brokenDeclarations()));
  }

  /** The name in a {@code policy NAME} header at the start of {@code source}, or null. */
  private static String headerName(String source) {
    PolicyLexer lexer = new PolicyLexer(CharStreams.fromString(source));
    lexer.removeErrorListeners();
    Token first = lexer.nextToken();
    Token second = lexer.nextToken();
    return first.getType() == PolicyLexer.POLICY && second.getType() == PolicyLexer.IDENT
        ? second.getText()
        : null;
  }
}
