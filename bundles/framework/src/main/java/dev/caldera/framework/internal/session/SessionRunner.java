package dev.caldera.framework.internal.session;

import dev.caldera.framework.ClusterSnapshot;
import dev.caldera.framework.PluginRegistry;
import dev.caldera.framework.SessionResult;
import dev.caldera.framework.conf.ConfException;
import dev.caldera.framework.conf.SchedulerConf;

/** Opens, runs and closes one session. */
public final class SessionRunner {

  private final PluginRegistry registry;
  private final SchedulerConf conf;

  public SessionRunner(PluginRegistry registry, SchedulerConf conf) {
    this.registry = registry;
    this.conf = conf;
  }

  /** Runs the session on {@code snapshot}. */
  public SessionResult run(ClusterSnapshot snapshot) throws ConfException {
    throw new UnsupportedOperationException("not yet: " + registry + conf + snapshot);
  }
}
