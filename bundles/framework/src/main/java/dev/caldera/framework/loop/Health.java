package dev.caldera.framework.loop;

import java.time.Instant;
import java.util.List;

/**
 * The loop's state.
 *
 * @param state {@code starting}, {@code running}, {@code holding} (the conf cannot run), {@code
 *     standby} (another replica schedules), {@code waiting} (the cluster source is not ready: its
 *     informers are listing, the lease cannot be held, ...), {@code finished} or {@code stopped}
 * @param reasons why sessions do not run (empty while running)
 * @param missingPlugins the plugins the conf names that are not loaded, while holding for them
 * @param lastSession when the last session ended, or null
 */
public record Health(
    String state,
    List<String> reasons,
    List<String> missingPlugins,
    long sessions,
    Instant lastSession) {

  public Health {
    reasons = List.copyOf(reasons);
    missingPlugins = List.copyOf(missingPlugins);
  }

  /** The loop is alive (it has not stopped). */
  public boolean live() {
    return !state.equals("stopped");
  }

  /**
   * Sessions run, or this replica stands by ready to take over from the leader: not starting,
   * holding, waiting or stopped.
   */
  public boolean ready() {
    return state.equals("running") || state.equals("finished") || state.equals("standby");
  }
}
