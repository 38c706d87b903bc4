package dev.caldera.framework;

import dev.caldera.framework.conf.ConfException;
import dev.caldera.framework.conf.SchedulerConf;
import dev.caldera.framework.internal.session.CarriedStates;
import dev.caldera.framework.internal.session.EvictionMemory;
import dev.caldera.framework.internal.session.PodDigests;
import dev.caldera.framework.internal.session.SessionRunner;

/**
 * Runs scheduling sessions: opens a session on a snapshot with the plugins the conf names, runs the
 * conf's actions in order, closes the session and returns its decisions. Thread-safe. Each call is
 * independent in what it decides, unless the scheduler was made by {@link #carryingState}; what a
 * call reads and opens of the objects that the next call's snapshot holds as the same objects is
 * not read or opened again ({@link CarriedStates}).
 */
public final class Scheduler {

  private final PluginRegistry registry;
  private final EvictionMemory memory;

  /** Pure functions of each pod, kept for the pods the next call's snapshot still holds. */
  private final PodDigests digests = new PodDigests();

  /** What a call opened and did not change, for the next call's session to take again. */
  private final CarriedStates carried = new CarriedStates();

  public Scheduler(PluginRegistry registry) {
    this(registry, null);
  }

  private Scheduler(PluginRegistry registry, EvictionMemory memory) {
    this.registry = registry;
    this.memory = memory;
  }

  /**
   * A scheduler whose sessions follow one another on one cluster, as a scheduling loop's do: what
   * preempt and reclaim remember (eviction budgets, the reclaim backoff, capacity held for a
   * preemptor) carries from each session to the next.
   */
  public static Scheduler carryingState(PluginRegistry registry) {
    return new Scheduler(registry, new EvictionMemory());
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
    return new SessionRunner(
            registry, conf, digests, memory == null ? new EvictionMemory() : memory, carried)
        .run(snapshot);
  }
}
