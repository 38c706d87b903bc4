package dev.caldera.kube.internal;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Says what went wrong with an API request in one line: the HTTP status, the API server's reason
 * and its message ({@code HTTP 403 Forbidden: pods "p" is forbidden: ...}), instead of fabric8's
 * generic "An error has occurred." or a multi-line "Failure executing" text.
 */
public final class ApiErrors {

  private ApiErrors() {}

  /** The innermost cause worth reporting, unwrapping futures' wrappers. */
  static Throwable cause(Throwable t) {
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  /** One line about {@code t}. */
  public static String describe(Throwable t) {
    Throwable c = cause(t);
    // fabric8 wraps the exception that carries the status in one without it ("An error has
    // occurred."): the first in the chain with an HTTP answer speaks for all.
    for (Throwable x = c; x != null; x = x.getCause()) {
      if (x instanceof KubernetesClientException k && (k.getCode() != 0 || k.getStatus() != null)) {
        return describe(k);
      }
    }
    if (c instanceof KubernetesClientException k) {
      return describe(k);
    }
    String text = c.getMessage() == null ? "" : ": " + c.getMessage();
    Throwable root = c.getCause();
    String because =
        root == null || root == c
            ? ""
            : " ("
                + root.getClass().getSimpleName()
                + (root.getMessage() == null ? "" : ": " + root.getMessage())
                + ")";
    return c.getClass().getSimpleName() + text + because;
  }

  private static String describe(KubernetesClientException k) {
    Status status = k.getStatus();
    int code = k.getCode();
    if (code == 0) {
      // No answer from the server at all: say what the connection did.
      Throwable root = k.getCause();
      return "no answer from the API server"
          + (root == null
              ? (k.getMessage() == null ? "" : ": " + k.getMessage())
              : ": "
                  + root.getClass().getSimpleName()
                  + (root.getMessage() == null ? "" : ": " + root.getMessage()));
    }
    StringBuilder out = new StringBuilder("HTTP ").append(code);
    String reason = status == null ? null : status.getReason();
    if (reason != null && !reason.isEmpty()) {
      out.append(' ').append(reason);
    }
    String message = status == null ? null : status.getMessage();
    if (message == null || message.isEmpty()) {
      message = k.getMessage();
    }
    if (message != null && !message.isEmpty()) {
      out.append(": ").append(message.strip().replace('\n', ' '));
    }
    return out.toString();
  }
}
