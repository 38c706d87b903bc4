package dev.caldera.api;

import java.util.List;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * A scheduler plugin instance. A fresh instance is made from its arguments for every session; it
 * registers its functions in {@link #onSessionOpen} and may write status in {@link
 * #onSessionClose}. Plugin classes are plain Java: tests create them with {@code new}.
 */
@ConsumerType
public interface Plugin {

  /** The registration name, e.g. {@code gang}. */
  String name();

  /**
   * What this plugin needs from the snapshot that is not there, e.g. a policy its arguments name
   * that no valid policy file declares; one entry per missing thing, naming it. Asked before any
   * plugin opens: a non-empty answer holds scheduling as a missing plugin does (no session runs,
   * health says why) until the next snapshot provides it.
   */
  default List<String> unmetRequirements(ClusterInfo cluster) {
    return List.of();
  }

  /** Reads the session's snapshot and registers functions. */
  void onSessionOpen(Session session, Extensions extensions);

  /** Called once the actions have run, before decisions are written back. */
  default void onSessionClose(Session session) {}
}
