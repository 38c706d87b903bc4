package dev.caldera.framework.internal.session;

import dev.caldera.support.resource.Resource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What preempt and reclaim remember from one session to the next: the evictions of the recent past
 * (for eviction budgets and the reclaim backoff) and the capacity held for the tasks victims were
 * evicted for. One instance lives as long as a scheduling loop (or a scenario run) and is handed to
 * every session; it is lost on restart (a budget starts afresh, a hold is dropped). Thread-safe.
 */
public final class EvictionMemory {

  /**
   * One committed eviction.
   *
   * @param victimJob the victim's job (pod group key)
   * @param forJob the job of the task it was evicted for ("" when unknown)
   * @param action the evicting action (preempt, reclaim)
   */
  record Eviction(
      Instant at,
      String victimJob,
      String victimQueue,
      String forJob,
      String forQueue,
      String action) {}

  /**
   * Capacity on a node held for the job whose tasks victims were evicted for.
   *
   * @param job the job (pod group key)
   * @param tasks the job's tasks the victims were evicted for (namespace/name): the hold ends when
   *     none of them waits any longer
   * @param lastSession the last session (by {@link #sessionsRun} count) it holds in
   */
  record Hold(String node, Resource amount, String job, List<String> tasks, long lastSession) {}

  /**
   * What a session sees: the memory as the previous session left it.
   *
   * @param said the refusals the previous session reported (key → message), not reported again
   *     while they hold unchanged
   */
  record View(long session, List<Eviction> evictions, List<Hold> holds, Map<String, String> said) {}

  private final List<Eviction> evictions = new ArrayList<>();
  private List<Hold> holds = new ArrayList<>();
  private Map<String, String> said = Map.of();
  private long sessionsRun;
  private Duration longestWindow = Duration.ZERO;

  /** Starts a session: its number and a copy of what is remembered. */
  synchronized View open() {
    sessionsRun++;
    return new View(sessionsRun, List.copyOf(evictions), List.copyOf(holds), said);
  }

  /**
   * Ends a session: adds its evictions, replaces the holds and forgets evictions no window looks at
   * any longer.
   *
   * @param window the longest window a rule of the session read (budget or backoff)
   */
  synchronized void close(
      Instant now,
      Duration window,
      List<Eviction> added,
      List<Hold> nextHolds,
      Map<String, String> saidNow) {
    said = Map.copyOf(saidNow);
    evictions.addAll(added);
    holds = new ArrayList<>(nextHolds);
    if (window.compareTo(longestWindow) > 0) {
      longestWindow = window;
    }
    Instant horizon = now.minus(longestWindow);
    evictions.removeIf(e -> !e.at().isAfter(horizon));
  }
}
