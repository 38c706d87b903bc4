package dev.caldera.kube.internal;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Says what went wrong with an API request in one line: the HTTP status, the API server's reason
 * and its message ({@code HTTP 403 Forbidden: pods "p" is forbidden: ...}), instead of fabric8's
 * generic "An error has occurred." or a multi-line "Failure executing" text.
 */
public final class ApiErrors {

  /** How many links of a cause chain {@link #chain} names. */
  private static final int MAX_CAUSES = 4;

  private static final String NO_ANSWER = "no answer from the API server";

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
    String client = describeClientException(c);
    return client != null ? client : chain(c);
  }

  /**
   * One line about a request's failure that fabric8 may hand over raw (a watch's retry logs the
   * HTTP client's own exception): without fabric8's exception in it, the server did not answer.
   */
  public static String describeRequestFailure(Throwable t) {
    Throwable c = cause(t);
    String client = describeClientException(c);
    return client != null ? client : NO_ANSWER + ": " + chain(c);
  }

  /** What fabric8's exception in {@code c}'s chain says, or null when it holds none that speaks. */
  private static String describeClientException(Throwable c) {
    // fabric8 wraps the exception that carries the status in one without it ("An error has
    // occurred."): the first in the chain with an HTTP answer speaks for all.
    for (Throwable x = c; x != null; x = x.getCause()) {
      if (x instanceof KubernetesClientException k && (k.getCode() > 0 || k.getStatus() != null)) {
        return describe(k);
      }
    }
    return c instanceof KubernetesClientException k ? describe(k) : null;
  }

  /** The HTTP status the API server answered with, somewhere in {@code t}'s chain, or 0. */
  public static int code(Throwable t) {
    for (Throwable x = cause(t); x != null; x = x.getCause()) {
      if (x instanceof KubernetesClientException k && k.getCode() > 0) {
        return k.getCode();
      }
    }
    return 0;
  }

  private static final Pattern ALREADY_ASSIGNED =
      Pattern.compile("already assigned to node \\\\?\"?([^\"\\\\\\s]+)");

  /**
   * Whether {@code t} holds the API server's answer to a bind of a pod that is bound already (HTTP
   * 409, {@code pod p is already assigned to node "n1"}): an earlier attempt whose answer was lost
   * landed, or someone else bound the pod.
   */
  public static boolean alreadyAssigned(Throwable t) {
    return code(t) == 409 && message(t).contains("already assigned to node");
  }

  /** The node an {@linkplain #alreadyAssigned already assigned} answer names, or null. */
  public static String assignedNode(Throwable t) {
    Matcher m = ALREADY_ASSIGNED.matcher(message(t));
    return m.find() ? m.group(1) : null;
  }

  /**
   * Whether a request that failed with {@code t} may still have been carried out: no answer (the
   * connection failed or timed out) or a server error.
   */
  public static boolean outcomeUnknown(Throwable t) {
    int code = code(t);
    if (code >= 500) {
      return true;
    }
    if (code > 0) {
      return false;
    }
    for (Throwable x = cause(t); x != null; x = x.getCause()) {
      if (x instanceof java.io.IOException || x instanceof KubernetesClientException) {
        return true;
      }
    }
    return false;
  }

  private static String message(Throwable t) {
    for (Throwable x = cause(t); x != null; x = x.getCause()) {
      if (x instanceof KubernetesClientException k && k.getCode() > 0) {
        Status status = k.getStatus();
        String m = status == null ? null : status.getMessage();
        return m != null ? m : String.valueOf(k.getMessage());
      }
    }
    return "";
  }

  /**
   * {@code t} and its causes, each as its class and message: {@code IOException (ConnectException:
   * Connection refused)}. The JDK's HTTP client wraps the reason a connection failed in exceptions
   * without a message, so the first link alone often says nothing.
   */
  private static String chain(Throwable t) {
    StringBuilder out = new StringBuilder();
    int depth = 0;
    for (Throwable x = t; x != null && depth < MAX_CAUSES; x = x.getCause(), depth++) {
      if (depth > 0) {
        out.append(" (");
      }
      out.append(x.getClass().getSimpleName());
      if (x.getMessage() != null && !x.getMessage().isBlank()) {
        out.append(": ").append(x.getMessage().strip().replace('\n', ' '));
      }
    }
    out.append(")".repeat(Math.max(0, depth - 1)));
    return out.toString();
  }

  private static String describe(KubernetesClientException k) {
    Status status = k.getStatus();
    int code = k.getCode();
    if (code <= 0) {
      // No answer from the server at all (fabric8 says 0 or -1): say what the connection did.
      Throwable root = k.getCause();
      return NO_ANSWER
          + (root == null
              ? (k.getMessage() == null ? "" : ": " + k.getMessage())
              : ": " + chain(root));
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
