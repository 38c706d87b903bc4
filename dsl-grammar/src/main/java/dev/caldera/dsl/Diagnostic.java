package dev.caldera.dsl;

/**
 * One error in a policy file, at a position, with the source line it points into.
 *
 * @param line 1-based
 * @param column 1-based, in characters
 * @param length how many characters the caret line underlines (at least 1)
 * @param sourceLine the text of the line, without its line terminator ("" past the end)
 */
public record Diagnostic(
    DiagnosticCode code,
    String file,
    int line,
    int column,
    int length,
    String message,
    String sourceLine)
    implements Comparable<Diagnostic> {

  public Diagnostic {
    length = Math.max(1, length);
    sourceLine = sourceLine == null ? "" : sourceLine;
  }

  /** {@code file:line:column: message}. */
  public String headline() {
    return file + ":" + line + ":" + column + ": " + message;
  }

  /**
   * The headline, then the source line and a caret line underlining the position:
   *
   * <pre>
   * tidal.policy:13:25: unknown service class 'trainig' (known: inference, training, unknown)
   *   inference may reclaim trainig when reclaimee.queue.reclaimable
   *                         ^^^^^^^
   * </pre>
   */
  public String render() {
    StringBuilder caret = new StringBuilder();
    for (int i = 0; i < column - 1; i++) {
      caret.append(i < sourceLine.length() && sourceLine.charAt(i) == '\t' ? '\t' : ' ');
    }
    int available = Math.max(1, sourceLine.length() - (column - 1));
    caret.append("^".repeat(Math.min(length, available)));
    return headline() + "\n" + sourceLine + "\n" + caret;
  }

  /** By file, then line, then column. */
  @Override
  public int compareTo(Diagnostic o) {
    int c = file.compareTo(o.file);
    if (c != 0) {
      return c;
    }
    return line != o.line ? Integer.compare(line, o.line) : Integer.compare(column, o.column);
  }
}
