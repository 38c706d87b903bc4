package dev.caldera.framework.internal.session;

import dev.caldera.api.GoDuration;
import dev.caldera.framework.conf.ConfException;
import dev.caldera.framework.conf.SchedulerConf;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Caldera's limits on evictions, shared by preempt and reclaim, read from the {@code reclaim}
 * action's {@code configurations} arguments, else from {@code preempt}'s (one value for both):
 *
 * <ul>
 *   <li>{@code evictionBudget: "N/DURATION"}: at most N pods of one job evicted per DURATION (a job
 *       at its budget is no victim); absent: no budget. A pod group's {@value #BUDGET_ANNOTATION}
 *       annotation gives its own.
 *   <li>{@code reclaimBackoff: DURATION}: a queue that lost resources to another queue's reclaim
 *       does not reclaim from that queue within DURATION; absent or 0: no backoff.
 *   <li>{@code holdSessions: N}: what victims free is held for the task they were evicted for (and
 *       its job) for N sessions; default 3, 0 turns holding off.
 * </ul>
 */
public record EvictionRules(Budget budget, Duration backoff, int holdSessions) {

  static final String BUDGET = "evictionBudget";
  static final String BACKOFF = "reclaimBackoff";
  static final String HOLD_SESSIONS = "holdSessions";
  static final String BUDGET_ANNOTATION = "caldera.dev/eviction-budget";

  static final int DEFAULT_HOLD_SESSIONS = 3;

  static final EvictionRules DEFAULTS =
      new EvictionRules(null, Duration.ZERO, DEFAULT_HOLD_SESSIONS);

  /** At most {@code evictions} pods evicted per {@code window}. */
  public record Budget(int evictions, Duration window, String text) {
    @Override
    public String toString() {
      return text;
    }
  }

  /** What is wrong with the rules' keys in {@code conf}; empty when they read. */
  public static List<String> problems(SchedulerConf conf) {
    try {
      of(conf);
      return List.of();
    } catch (ConfException e) {
      return e.problems();
    }
  }

  /** The rules of {@code conf}. */
  static EvictionRules of(SchedulerConf conf) throws ConfException {
    List<String> problems = new ArrayList<>();
    Budget budget = null;
    Duration backoff = Duration.ZERO;
    int hold = DEFAULT_HOLD_SESSIONS;
    String where = where(conf, BUDGET);
    if (where != null) {
      Object v = conf.configurations().get(where).get(BUDGET);
      try {
        budget = parseBudget(String.valueOf(v));
      } catch (IllegalArgumentException e) {
        problems.add(prefix(where, BUDGET) + e.getMessage());
      }
    }
    where = where(conf, BACKOFF);
    if (where != null) {
      Object v = conf.configurations().get(where).get(BACKOFF);
      try {
        backoff = GoDuration.parse(String.valueOf(v));
        if (backoff.isNegative()) {
          problems.add(prefix(where, BACKOFF) + "expected a duration of 0 or more, got " + v);
        }
      } catch (IllegalArgumentException e) {
        problems.add(prefix(where, BACKOFF) + "expected a duration such as 10m, got \"" + v + "\"");
      }
    }
    where = where(conf, HOLD_SESSIONS);
    if (where != null) {
      Object v = conf.configurations().get(where).get(HOLD_SESSIONS);
      if (v instanceof Integer i && i >= 0) {
        hold = i;
      } else {
        problems.add(
            prefix(where, HOLD_SESSIONS) + "expected a number of sessions (0 or more), got " + v);
      }
    }
    if (!problems.isEmpty()) {
      throw new ConfException("conf", problems);
    }
    return new EvictionRules(budget, backoff, hold);
  }

  private static String where(SchedulerConf conf, String key) {
    for (String action : List.of("reclaim", "preempt")) {
      Map<String, Object> args = conf.configurations().get(action);
      if (args != null && args.containsKey(key)) {
        return action;
      }
    }
    return null;
  }

  private static String prefix(String action, String key) {
    return "configurations " + action + " " + key + ": ";
  }

  /**
   * {@code N/DURATION}, N ≥ 0 and a positive Go duration.
   *
   * @throws IllegalArgumentException saying what was expected
   */
  static Budget parseBudget(String text) {
    String expected = "expected N/DURATION such as 3/1h, got \"" + text + "\"";
    int slash = text.indexOf('/');
    if (slash <= 0) {
      throw new IllegalArgumentException(expected);
    }
    int n;
    Duration window;
    try {
      n = Integer.parseInt(text.substring(0, slash).trim());
      window = GoDuration.parse(text.substring(slash + 1).trim());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(expected, e);
    }
    if (n < 0 || window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException(expected);
    }
    return new Budget(n, window, text.trim());
  }
}
