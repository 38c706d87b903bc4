package dev.caldera.sim;

import dev.caldera.framework.SessionResult;
import java.util.List;
import java.util.Map;

/**
 * What one session of a run decided.
 *
 * @param index 1-based
 * @param podGroupPhaseChanges pod group key → its new phase, for the groups whose phase changed
 */
public record SessionReport(
    int index,
    double durationMillis,
    List<SessionResult.Bind> binds,
    List<SessionResult.Eviction> evictions,
    List<SessionResult.Pipelined> pipelined,
    Map<String, String> podGroupPhaseChanges,
    List<SessionResult.Event> events,
    SessionResult.SessionStats stats) {}
