package dev.caldera.framework.internal.actions;

import dev.caldera.api.action.ActionSession;

/**
 * The preempt action's arguments, with Volcano's defaults.
 *
 * @param workers {@code topologyAwarePreemptWorkerNum}: read for validation only, the dry runs here
 *     are sequential so that the chosen candidates do not depend on thread timing
 */
record PreemptOptions(
    boolean predicateErrorCache,
    boolean topologyAware,
    int workers,
    int minCandidatePercentage,
    int minCandidateAbsolute,
    int maxCandidateAbsolute) {

  static final PreemptOptions DEFAULTS = new PreemptOptions(true, false, 16, 10, 1, 100);

  static PreemptOptions of(ActionSession session) {
    ActionArguments args = ActionArguments.of(session, PreemptAction.NAME);
    return new PreemptOptions(
        args.getBoolean(ActionArguments.PREDICATE_ERROR_CACHE, DEFAULTS.predicateErrorCache),
        args.getBoolean(ActionArguments.TOPOLOGY_AWARE_PREEMPTION, DEFAULTS.topologyAware),
        args.getInt(ActionArguments.TOPOLOGY_AWARE_WORKERS, DEFAULTS.workers),
        args.getInt(ActionArguments.MIN_CANDIDATE_PERCENTAGE, DEFAULTS.minCandidatePercentage),
        args.getInt(ActionArguments.MIN_CANDIDATE_ABSOLUTE, DEFAULTS.minCandidateAbsolute),
        args.getInt(ActionArguments.MAX_CANDIDATE_ABSOLUTE, DEFAULTS.maxCandidateAbsolute));
  }

  /**
   * {@code CalculateNumCandidates}: {@code n · percentage / 100}, raised to the absolute minimum,
   * capped by the absolute maximum and by {@code n}.
   */
  int candidatesToFind(int nodes) {
    int n = nodes * minCandidatePercentage / 100;
    if (n < minCandidateAbsolute) {
      n = minCandidateAbsolute;
    }
    if (n > maxCandidateAbsolute) {
      n = maxCandidateAbsolute;
    }
    return Math.min(n, nodes);
  }
}
