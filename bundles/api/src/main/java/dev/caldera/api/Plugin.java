package dev.caldera.api;

/**
 * A scheduler plugin instance. A fresh instance is made from its arguments for every session; it
 * registers its functions in {@link #onSessionOpen} and may write status in {@link
 * #onSessionClose}. Plugin classes are plain Java: tests create them with {@code new}.
 */
public interface Plugin {

  /** The registration name, e.g. {@code gang}. */
  String name();

  /** Reads the session's snapshot and registers functions. */
  void onSessionOpen(Session session, Extensions extensions);

  /** Called once the actions have run, before decisions are written back. */
  default void onSessionClose(Session session) {}
}
