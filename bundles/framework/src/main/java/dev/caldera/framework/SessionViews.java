package dev.caldera.framework;

import dev.caldera.api.Session;
import dev.caldera.framework.internal.session.SessionRunner;

/**
 * The framework's own views of a snapshot, as a session opens with them: the jobs, tasks, nodes and
 * queues plugins read, built by the code every session uses (pod facts, priority classes, default
 * queue, node accounting). For tools that evaluate plugin logic on a described cluster without
 * scheduling it ({@code caldera policy test}).
 */
public final class SessionViews {

  private SessionViews() {}

  /**
   * A session on {@code snapshot} with no plugin and no action. Objects a session would refuse
   * (quantities out of bounds) are left out.
   */
  public static Session open(ClusterSnapshot snapshot) {
    return SessionRunner.openViews(snapshot);
  }
}
