package dev.caldera.load;

/**
 * A run that cannot go on, with a message for the user (one line, saying what to do where there is
 * something to do): the tool prints it, cleans up and exits with 1.
 */
final class LoadException extends Exception {

  private static final long serialVersionUID = 1L;

  LoadException(String message) {
    super(message);
  }

  LoadException(String message, Throwable cause) {
    super(message, cause);
  }
}
