package dev.caldera.runtime.policy;

/** A cases file that cannot be read: the message names the file and what is wrong. */
public final class CaseException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public CaseException(String message) {
    super(message);
  }
}
