package dev.caldera.dsl.internal.parser;

import dev.caldera.dsl.internal.tree.PolicyFile;
import dev.caldera.dsl.internal.tree.Reporter;
import dev.caldera.dsl.internal.tree.Span;
import java.util.Set;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;

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
    SyntaxErrors errors = new SyntaxErrors(reporter);
    PolicyLexer lexer = new PolicyLexer(CharStreams.fromString(source, reporter.file()));
    lexer.removeErrorListeners();
    lexer.addErrorListener(errors);
    PolicyParser parser = new PolicyParser(new CommonTokenStream(lexer));
    parser.removeErrorListeners();
    parser.addErrorListener(errors);
    parser.setErrorHandler(new LineRecovery());
    TreeBuilder builder = new TreeBuilder(source);
    PolicyFile file = builder.file(parser.policyFile());
    return new Parsed(file, Set.copyOf(builder.brokenDeclarations()));
  }
}
