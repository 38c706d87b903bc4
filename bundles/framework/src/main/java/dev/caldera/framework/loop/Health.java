package dev.caldera.framework.loop;

import java.time.Instant;
import java.util.List;

/**
 * The loop's state.
 *
 * @param state {@code starting}, {@code running}, {@code holding} (the conf cannot run), {@code
 *     standby} (another replica schedules), {@code waiting} (the cluster source is not ready: its
 *     informers are listing, the lease cannot be held, ...), {@code stuck} (a cycle has run past
 *     the session deadline: not ready, live until the liveness timeout), {@code finished}, {@code
 *     stopped} or {@code failed} (the loop thread died, e.g. out of memory)
 * @param reasons why sessions do not run (empty while running)
 * @param missingPlugins the plugins the conf names that are not loaded, while holding for them
 * @param lastSession when the last session ended, or null
 * @param lastCycle when the loop last finished a cycle (a session, a hold or a failed session), or
 *     null before the first
 * @param cycling false when the loop should be cycling but no cycle has finished within its
 *     liveness timeout (a session stuck or the loop thread gone)
 */
public record Health(
    String state,
    List<String> reasons,
    List<String> missingPlugins,
    long sessions,
    Instant lastSession,
    Instant lastCycle,
    boolean cycling) {

  public Health {
    reasons = List.copyOf(reasons);
    missingPlugins = List.copyOf(missingPlugins);
  }

  /** A loop that is cycling, last cycle unknown. */
  public Health(
      String state,
      List<String> reasons,
      List<String> missingPlugins,
      long sessions,
      Instant lastSession) {
    this(state, reasons, missingPlugins, sessions, lastSession, null, true);
  }

  /** The loop is alive: it has not stopped or failed, and its cycles keep finishing. */
  public boolean live() {
    return !state.equals("stopped") && !state.equals("failed") && cycling;
  }

  /**
   * The loop is live and sessions run, or this replica stands by ready to take over from the
   * leader: not starting, holding, waiting, stopped or failed.
   */
  public boolean ready() {
    return live()
        && (state.equals("running") || state.equals("finished") || state.equals("standby"));
  }
}
