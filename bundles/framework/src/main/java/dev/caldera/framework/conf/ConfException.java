package dev.caldera.framework.conf;

import java.util.List;

/**
 * A conf that cannot be used; every problem is listed, each naming the key and what was expected.
 */
public final class ConfException extends Exception {

  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  public ConfException(String source, List<String> problems) {
    super(source + ": " + String.join("; ", problems));
    this.problems = List.copyOf(problems);
  }

  /** Each problem on its own. */
  public List<String> problems() {
    return problems;
  }
}
