package dev.caldera.admin.internal;

/** A request the admin API refuses, with the HTTP status to answer. */
public final class AdminException extends Exception {

  private static final long serialVersionUID = 1L;

  private final int status;

  public AdminException(int status, String message) {
    super(message);
    this.status = status;
  }

  /** The HTTP status. */
  public int status() {
    return status;
  }
}
