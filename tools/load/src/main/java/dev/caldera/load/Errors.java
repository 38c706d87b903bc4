package dev.caldera.load;

import io.fabric8.kubernetes.client.KubernetesClientException;

/** One-line descriptions of failures, for the tool's messages. */
final class Errors {

  /** What fabric8 says before the cause of a request that got no answer. */
  private static final String FABRIC8_WRAPPER = "An error has occurred";

  private Errors() {}

  /**
   * An API error as {@code HTTP 403 Forbidden: message}; any other failure as its message (or its
   * class name), followed by its causes' messages when they add something.
   */
  static String describe(Throwable e) {
    StringBuilder sb = new StringBuilder(one(e));
    int depth = 0;
    for (Throwable c = e.getCause(); c != null && depth < 10; c = c.getCause(), depth++) {
      String text = one(c);
      if (sb.indexOf(text) < 0) {
        sb.append(": ").append(text);
      }
    }
    return sb.toString();
  }

  private static String one(Throwable e) {
    if (e instanceof KubernetesClientException k && k.getCode() > 0) {
      String reason = k.getStatus() == null ? null : k.getStatus().getReason();
      String message = k.getStatus() == null ? null : k.getStatus().getMessage();
      return "HTTP "
          + k.getCode()
          + (reason == null || reason.isBlank() ? "" : " " + reason)
          + (message == null || message.isBlank() ? "" : ": " + message);
    }
    String m = e.getMessage();
    if (m != null && m.startsWith(FABRIC8_WRAPPER)) {
      m = m.substring(FABRIC8_WRAPPER.length()).replaceFirst("^[.:\\s]+", "");
    }
    return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
  }

  /**
   * Why a request got no answer: the first network failure in the chain ({@code ConnectException},
   * {@code UnknownHostException: api.example}, {@code SSLHandshakeException: ...}), else {@link
   * #describe}.
   */
  static String unanswered(Throwable e) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      String pkg = c.getClass().getPackageName();
      if (pkg.equals("java.net") || pkg.equals("java.net.http") || pkg.equals("javax.net.ssl")) {
        String m = c.getMessage();
        return c.getClass().getSimpleName() + (m == null || m.isBlank() ? "" : ": " + m);
      }
    }
    return describe(e);
  }
}
