package dev.caldera.runtime;

/** One-line descriptions of exceptions, for {@code error:} lines. */
final class Errors {

  private Errors() {}

  /**
   * The exception's message, or its class name when it has none, followed by its causes' messages
   * when they add something.
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
    String m = e.getMessage();
    if (m == null || m.isBlank()) {
      return e.getClass().getName();
    }
    if (e instanceof RuntimeException && !(e instanceof IllegalArgumentException)) {
      return e.getClass().getSimpleName() + ": " + m;
    }
    return m;
  }
}
