package dev.caldera.plugins.extender;

/**
 * A call to the extender failed: it could not be sent, timed out, answered other than 200, sent too
 * large a body, or a body that does not decode into the expected response.
 */
final class ExtenderException extends Exception {

  private static final long serialVersionUID = 1L;

  ExtenderException(String message) {
    super(message);
  }

  ExtenderException(String message, Throwable cause) {
    super(message, cause);
  }
}
