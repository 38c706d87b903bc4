package dev.caldera.framework;

import java.util.Objects;

/**
 * Whether a {@link ClusterSource} can be scheduled now, and if not, why.
 *
 * @param state what the loop does: run a session, stand by, or wait
 * @param reason why no session runs, for operators (empty when {@link State#READY})
 */
public record SourceStatus(State state, String reason) {

  /** What the loop does with a source in this state. */
  public enum State {
    /** Sessions run. */
    READY,
    /**
     * Healthy, but another replica schedules (leader election): no session runs, and the replica
     * counts as ready to take over.
     */
    STANDBY,
    /**
     * The source cannot give a complete, current view of the cluster (informers still listing, the
     * lease cannot be held, ...): no session runs, and the replica is not ready.
     */
    NOT_READY
  }

  private static final SourceStatus READY_STATUS = new SourceStatus(State.READY, "");

  public SourceStatus {
    Objects.requireNonNull(state, "state");
    reason = reason == null ? "" : reason;
  }

  /** Sessions may run. */
  public static SourceStatus ready() {
    return READY_STATUS;
  }

  /** Another replica schedules; {@code reason} says which. */
  public static SourceStatus standby(String reason) {
    return new SourceStatus(State.STANDBY, reason);
  }

  /** No session may run until {@code reason} is gone. */
  public static SourceStatus notReady(String reason) {
    return new SourceStatus(State.NOT_READY, reason);
  }

  public boolean isReady() {
    return state == State.READY;
  }
}
