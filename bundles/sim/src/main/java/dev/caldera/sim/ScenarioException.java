package dev.caldera.sim;

/**
 * A scenario that cannot be loaded or run. The message is one line: {@code <file>: <object
 * kind/name>: <field>: <what was expected>}, meant to be printed as it is.
 */
public final class ScenarioException extends Exception {

  private static final long serialVersionUID = 1L;

  public ScenarioException(String message) {
    super(message);
  }

  public ScenarioException(String message, Throwable cause) {
    super(message, cause);
  }
}
