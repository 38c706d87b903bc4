package dev.caldera.framework;

import dev.caldera.framework.conf.ConfException;
import dev.caldera.framework.conf.SchedulerConf;
import dev.caldera.framework.internal.session.SessionRunner;

/**
 * Runs scheduling sessions: opens a session on a snapshot with the plugins the conf names, runs the
 * conf's actions in order, closes the session and returns its decisions. Thread-safe; each call is
 * independent.
 */
public final class Scheduler {

  private final PluginRegistry registry;

  public Scheduler(PluginRegistry registry) {
    this.registry = registry;
  }

  /**
   * Runs one session.
   *
   * @throws ConfException if an action or a non-optional plugin is not available, a plugin rejects
   *     its arguments, or a plugin's requirements are not in the snapshot ({@link
   *     dev.caldera.api.Plugin#unmetRequirements}); nothing is decided then
   */
  public SessionResult runSession(ClusterSnapshot snapshot, SchedulerConf conf)
      throws ConfException {
    return new SessionRunner(registry, conf).run(snapshot);
  }
}
